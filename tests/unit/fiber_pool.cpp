// SPDX-License-Identifier: MIT
// fiber_pool: stack sizes, reuse, staggered tops, and the guard region below every stack.
#include "fiber_pool.hpp"

#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <set>
#include <vector>

using cusim::sim::fiber_guard_bytes;
using cusim::sim::stack_pool;

TEST_CASE("a pooled stack has the requested usable bytes, writable from its top down") {
  stack_pool pool;
  pool.set_stack_bytes(64 * 1024);
  boost::context::stack_context s = pool.allocate();
  CHECK(s.size >= 64 * 1024);  // and less than a page more: the top's colour within its page
  CHECK(s.size < 64 * 1024 + 4096);
  char* top = static_cast<char*>(s.sp);
  std::memset(top - s.size, 0x5a, s.size);  // every usable byte is mapped and writable
  CHECK(top[-1] == 0x5a);
  pool.deallocate(s);
}

TEST_CASE("freed stacks are reused, and stack tops are staggered across cache sets") {
  stack_pool pool;
  boost::context::stack_context a = pool.allocate(), b = pool.allocate();
  CHECK(reinterpret_cast<std::uintptr_t>(a.sp) % 4096 != reinterpret_cast<std::uintptr_t>(b.sp) % 4096);
  void* a_top = a.sp;
  pool.deallocate(a);
  boost::context::stack_context c = pool.allocate();
  CHECK(c.sp == a_top);
  pool.deallocate(b);
  pool.deallocate(c);
}

TEST_CASE("the tops of 1,024 stacks fall into more than half of the sets of a 512 KiB 8-way cache") {
  // Such a cache maps an address to one of 1,024 sets by bits 6-15. Tops staggered over only
  // 32 KiB share 512 sets, eight per set: as many ways as the cache has, before any other data.
  stack_pool pool;
  pool.set_stack_bytes(16 * 1024);
  std::vector<boost::context::stack_context> stacks;
  std::set<std::uintptr_t> sets;
  for (int i = 0; i < 1024; ++i) {
    stacks.push_back(pool.allocate());
    sets.insert(reinterpret_cast<std::uintptr_t>(stacks.back().sp) / 64 % 1024);
    CHECK(stacks.back().size >= 16 * 1024);
  }
  CHECK(sets.size() > 512);
  for (auto& s : stacks) pool.deallocate(s);
}

TEST_CASE("the guard region lies right below the usable bytes: touching it faults") {
  stack_pool pool;
  pool.set_stack_bytes(32 * 1024);
  boost::context::stack_context s = pool.allocate();
  char* lowest = static_cast<char*>(s.sp) - s.size;
  for (std::size_t below : {std::size_t{1}, fiber_guard_bytes / 2, fiber_guard_bytes}) {
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::signal(SIGSEGV, SIG_DFL);
      ::signal(SIGBUS, SIG_DFL);
      *static_cast<volatile char*>(lowest - below) = 1;
      ::_exit(0);  // not reached when the guard is there
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status));
    CHECK((WTERMSIG(status) == SIGSEGV || WTERMSIG(status) == SIGBUS));
  }
  pool.deallocate(s);
}
