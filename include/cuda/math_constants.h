// SPDX-License-Identifier: MIT
// cusim's <math_constants.h>: CUDA's CUDART_* constants. Each value is the IEEE single or double
// nearest to the quantity named in its comment (hexadecimal literals, so exact); _HI/_LO pairs
// split a value into its nearest double and the nearest double to the rest.
#ifndef CUSIM_CUDA_MATH_CONSTANTS_H_
#define CUSIM_CUDA_MATH_CONSTANTS_H_

// Special values by their bits (CUDA's quiet NaNs: float 0x7fffffff, double 0xfff8000000000000).
#define CUDART_INF_F             (__builtin_bit_cast(float, 0x7f800000U))
#define CUDART_NAN_F             (__builtin_bit_cast(float, 0x7fffffffU))
#define CUDART_MIN_DENORM_F      (__builtin_bit_cast(float, 0x00000001U))
#define CUDART_MAX_NORMAL_F      (__builtin_bit_cast(float, 0x7f7fffffU))
#define CUDART_NEG_ZERO_F        (__builtin_bit_cast(float, 0x80000000U))
#define CUDART_ZERO_F            0.0F
#define CUDART_ONE_F             1.0F
#define CUDART_SQRT_HALF_F       0x1.6a09e6p-1F  // sqrt(1/2)
#define CUDART_SQRT_HALF_HI_F    0x1.6a09e6p-1F  // sqrt(1/2), head
#define CUDART_SQRT_HALF_LO_F    0x1.9fcef4p-27F  // sqrt(1/2) - head
#define CUDART_SQRT_TWO_F        0x1.6a09e6p+0F  // sqrt(2)
#define CUDART_THIRD_F           0x1.555556p-2F  // 1/3
#define CUDART_PIO4_F            0x1.921fb6p-1F  // pi/4
#define CUDART_PIO2_F            0x1.921fb6p+0F  // pi/2
#define CUDART_3PIO4_F           0x1.2d97c8p+1F  // 3pi/4
#define CUDART_2_OVER_PI_F       0x1.45f306p-1F  // 2/pi
#define CUDART_SQRT_2_OVER_PI_F  0x1.988454p-1F  // sqrt(2/pi)
#define CUDART_PI_F              0x1.921fb6p+1F  // pi
#define CUDART_L2E_F             0x1.715476p+0F  // log2(e)
#define CUDART_L2T_F             0x1.a934fp+1F  // log2(10)
#define CUDART_LG2_F             0x1.344136p-2F  // log10(2)
#define CUDART_LGE_F             0x1.bcb7b2p-2F  // log10(e)
#define CUDART_LN2_F             0x1.62e43p-1F  // ln(2)
#define CUDART_LNT_F             0x1.26bb1cp+1F  // ln(10)
#define CUDART_LNPI_F            0x1.250d04p+0F  // ln(pi)
#define CUDART_TWO_TO_M126_F     0x1p-126F  // 2^-126
#define CUDART_TWO_TO_126_F      0x1p+126F  // 2^126
#define CUDART_NORM_HUGE_F       0x1.fffffep+127F  // largest finite float
#define CUDART_TWO_TO_23_F       0x1p+23F  // 2^23
#define CUDART_TWO_TO_24_F       0x1p+24F  // 2^24
#define CUDART_TWO_TO_31_F       0x1p+31F  // 2^31
#define CUDART_TWO_TO_32_F       0x1p+32F  // 2^32
#define CUDART_REMQUO_BITS_F     3U  // quotient bits remquof delivers
#define CUDART_REMQUO_MASK_F     (~((~0U) << CUDART_REMQUO_BITS_F))
#define CUDART_TRIG_PLOSS_F      105615.0F  // float arguments of trig functions beyond this lose precision

#define CUDART_INF               (__builtin_bit_cast(double, 0x7ff0000000000000ULL))
#define CUDART_NAN               (__builtin_bit_cast(double, 0xfff8000000000000ULL))
#define CUDART_NEG_ZERO          (__builtin_bit_cast(double, 0x8000000000000000ULL))
#define CUDART_MIN_DENORM        (__builtin_bit_cast(double, 0x0000000000000001ULL))
#define CUDART_ZERO              0.0
#define CUDART_ONE               1.0
#define CUDART_SQRT_TWO          0x1.6a09e667f3bcdp+0  // sqrt(2)
#define CUDART_SQRT_HALF         0x1.6a09e667f3bcdp-1  // sqrt(1/2)
#define CUDART_SQRT_HALF_HI      0x1.6a09e667f3bcdp-1  // sqrt(1/2), head
#define CUDART_SQRT_HALF_LO      (-0x1.bdd3413b26456p-55)  // sqrt(1/2) - head
#define CUDART_THIRD             0x1.5555555555555p-2  // 1/3
#define CUDART_TWOTHIRD          0x1.5555555555555p-1  // 2/3
#define CUDART_PIO4              0x1.921fb54442d18p-1  // pi/4
#define CUDART_PIO4_HI           0x1.921fb54442d18p-1  // pi/4, head
#define CUDART_PIO4_LO           0x1.1a62633145c07p-55  // pi/4 - head
#define CUDART_PIO2              0x1.921fb54442d18p+0  // pi/2
#define CUDART_PIO2_HI           0x1.921fb54442d18p+0  // pi/2, head
#define CUDART_PIO2_LO           0x1.1a62633145c07p-54  // pi/2 - head
#define CUDART_3PIO4             0x1.2d97c7f3321d2p+1  // 3pi/4
#define CUDART_2_OVER_PI         0x1.45f306dc9c883p-1  // 2/pi
#define CUDART_PI                0x1.921fb54442d18p+1  // pi
#define CUDART_PI_HI             0x1.921fb54442d18p+1  // pi, head
#define CUDART_PI_LO             0x1.1a62633145c07p-53  // pi - head
#define CUDART_SQRT_2PI          0x1.40d931ff62706p+1  // sqrt(2pi)
#define CUDART_SQRT_2PI_HI       0x1.40d931ff62706p+1  // sqrt(2pi), head
#define CUDART_SQRT_2PI_LO       (-0x1.a6a0d6f814637p-53)  // sqrt(2pi) - head
#define CUDART_SQRT_PIO2         0x1.40d931ff62706p+0  // sqrt(pi/2)
#define CUDART_SQRT_PIO2_HI      0x1.40d931ff62706p+0  // sqrt(pi/2), head
#define CUDART_SQRT_PIO2_LO      (-0x1.a6a0d6f814637p-54)  // sqrt(pi/2) - head
#define CUDART_SQRT_2OPI         0x1.9884533d43651p-1  // sqrt(2/pi)
#define CUDART_L2E               0x1.71547652b82fep+0  // log2(e)
#define CUDART_L2E_HI            0x1.71547652b82fep+0  // log2(e), head
#define CUDART_L2E_LO            0x1.777d0ffda0d24p-56  // log2(e) - head
#define CUDART_L2T               0x1.a934f0979a371p+1  // log2(10)
#define CUDART_LG2               0x1.34413509f79ffp-2  // log10(2)
#define CUDART_LG2_HI            0x1.34413509f79ffp-2  // log10(2), head
#define CUDART_LG2_LO            (-0x1.9dc1da994fd21p-59)  // log10(2) - head
#define CUDART_LGE               0x1.bcb7b1526e50ep-2  // log10(e)
#define CUDART_LGE_HI            0x1.bcb7b1526e50ep-2  // log10(e), head
#define CUDART_LGE_LO            0x1.95355baaafad3p-57  // log10(e) - head
#define CUDART_LN2               0x1.62e42fefa39efp-1  // ln(2)
#define CUDART_LN2_HI            0x1.62e42fefa39efp-1  // ln(2), head
#define CUDART_LN2_LO            0x1.abc9e3b39803fp-56  // ln(2) - head
#define CUDART_LNT               0x1.26bb1bbb55516p+1  // ln(10)
#define CUDART_LNT_HI            0x1.26bb1bbb55516p+1  // ln(10), head
#define CUDART_LNT_LO            (-0x1.f48ad494ea3e9p-53)  // ln(10) - head
#define CUDART_LNPI              0x1.250d048e7a1bdp+0  // ln(pi)
#define CUDART_LN2_X_1024        0x1.62e42fefa39efp+9  // ln(2) * 1024
#define CUDART_LN2_X_1025        0x1.633ce8fb9f87ep+9  // ln(2) * 1025
#define CUDART_LN2_X_1075        0x1.74910d52d3052p+9  // ln(2) * 1075
#define CUDART_LG2_X_1024        0x1.34413509f79ffp+8  // log10(2) * 1024
#define CUDART_LG2_X_1075        0x1.439b746e36b52p+8  // log10(2) * 1075
#define CUDART_TWO_TO_23         0x1p+23  // 2^23
#define CUDART_TWO_TO_52         0x1p+52  // 2^52
#define CUDART_TWO_TO_53         0x1p+53  // 2^53
#define CUDART_TWO_TO_54         0x1p+54  // 2^54
#define CUDART_TWO_TO_M54        0x1p-54  // 2^-54
#define CUDART_TWO_TO_M1022      0x1p-1022  // 2^-1022, the smallest normal double
#define CUDART_TRIG_PLOSS        2147483648.0  // 2^31: double trig arguments beyond this lose precision
#define CUDART_DBL2INT_CVT       6755399441055744.0  // 1.5 * 2^52: adding it rounds a double to an integer

#endif  // CUSIM_CUDA_MATH_CONSTANTS_H_
