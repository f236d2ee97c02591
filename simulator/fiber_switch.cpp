// SPDX-License-Identifier: MIT
// cusim_jump_fcontext: see fiber_switch.hpp. Frame at the saved address, as Boost.Context lays
// it out: +0x0 MXCSR and x87 control word (for Boost.Context's own jump to load: the defaults,
// 0x1f80 and 0x037f, which every fiber runs with, stored as constants rather than read with
// stmxcsr/fnstcw), +0x8 r12, r13, r14, r15, rbx, rbp, +0x38 the return address.
#include "fiber_switch.hpp"

#if CUSIM_FAST_SWITCH
asm(R"(
    .text
    .globl  cusim_jump_fcontext
    .hidden cusim_jump_fcontext
    .type   cusim_jump_fcontext, @function
    .align  16
cusim_jump_fcontext:
    leaq    -0x38(%rsp), %rsp
    movl    $0x1f80, (%rsp)
    movw    $0x037f, 0x4(%rsp)
    movq    %r12, 0x8(%rsp)
    movq    %r13, 0x10(%rsp)
    movq    %r14, 0x18(%rsp)
    movq    %r15, 0x20(%rsp)
    movq    %rbx, 0x28(%rsp)
    movq    %rbp, 0x30(%rsp)
    movq    %rsp, %rax
    movq    %rdi, %rsp
    movq    0x8(%rsp), %r12
    movq    0x10(%rsp), %r13
    movq    0x18(%rsp), %r14
    movq    0x20(%rsp), %r15
    movq    0x28(%rsp), %rbx
    movq    0x30(%rsp), %rbp
    leaq    0x38(%rsp), %rsp
    movq    %rsi, %rdx
    movq    %rax, %rdi
    ret
    .size   cusim_jump_fcontext, .-cusim_jump_fcontext
    .section .note.GNU-stack,"",%progbits
    .text
)");
#endif
