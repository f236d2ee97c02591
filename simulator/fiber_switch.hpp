// SPDX-License-Identifier: MIT
// The switch between two fibers of a block: Boost.Context's jump_fcontext, or on x86-64 our own
// jump with the same saved-register layout (Boost.Context resumes what it saved and the gdb
// extension unwinds it the same way). Ours returns with `ret`, so the return-stack predictor
// stays right when every fiber switches from one call site (a barrier), and it does not reload
// the FPU control words (every fiber runs with the same). Worth ~10 ns a switch here.
#pragma once

#include <boost/context/fiber.hpp>

#include <type_traits>
#include <utility>

#if defined(__x86_64__) && defined(__ELF__) && !defined(BOOST_USE_UCONTEXT) && !defined(BOOST_USE_SEGMENTED_STACKS)
#  define CUSIM_FAST_SWITCH 1
extern "C" boost::context::detail::transfer_t cusim_jump_fcontext(boost::context::detail::fcontext_t to, void* vp);
#else
#  define CUSIM_FAST_SWITCH 0
#endif

namespace cusim::sim {

static_assert(sizeof(boost::context::fiber) == sizeof(void*) && std::is_standard_layout_v<boost::context::fiber>,
              "a suspended boost::context::fiber is the address of its saved registers");

/// The saved-register address a suspended fiber is (null while it runs).
inline void*& saved_registers(boost::context::fiber& f) noexcept { return *reinterpret_cast<void**>(&f); }
inline const void* saved_registers(const boost::context::fiber& f) noexcept {
  return *reinterpret_cast<const void* const*>(&f);
}

/// Resumes `target` and, once something switches back, stores what it left into `from`. Not
/// noexcept: an idle fiber is unwound (forced_unwind) from here when its runner trims it. The
/// caller tells the sanitizers first (sanitizers.hpp: start_switch, then finish_switch on return).
[[gnu::always_inline]] inline void resume_into(boost::context::fiber& target, boost::context::fiber& from) {
#if CUSIM_FAST_SWITCH
  saved_registers(from) = cusim_jump_fcontext(std::exchange(saved_registers(target), nullptr), nullptr).fctx;
#else
  from = std::move(target).resume();
#endif
}

}  // namespace cusim::sim
