// SPDX-License-Identifier: MIT
// The sanitizer build switches Boost.Context to its ucontext fibers (BOOST_USE_UCONTEXT +
// BOOST_USE_ASAN), which announce every stack switch to AddressSanitizer. Debian's
// libboost_context is built for fcontext and lacks this backend's two out-of-line pieces: the
// per-thread record of the thread's own (main) context, defined here.
#if defined(BOOST_USE_UCONTEXT)
#  include <boost/context/fiber.hpp>

#  include <cstddef>

namespace boost::context::detail {

namespace {
thread_local fiber_activation_record* current_record = nullptr;
thread_local std::size_t initializers = 0;
}  // namespace

fiber_activation_record_initializer::fiber_activation_record_initializer() noexcept {
  if (initializers++ == 0) current_record = new fiber_activation_record();  // the thread's own context
}

fiber_activation_record_initializer::~fiber_activation_record_initializer() {
  if (--initializers == 0) {
    delete current_record;
    current_record = nullptr;
  }
}

fiber_activation_record*& fiber_activation_record::current() noexcept {
  thread_local fiber_activation_record_initializer initializer;
  return current_record;
}

}  // namespace boost::context::detail
#endif
