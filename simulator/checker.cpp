// SPDX-License-Identifier: MIT
// A launch's checker set: each hook calls every checker in turn.
#include "checker.hpp"


namespace cusim::sim {

checker_set::checker_set(std::vector<std::unique_ptr<checker>> checkers) : checkers_(std::move(checkers)) {
  for (const auto& c : checkers_) {
    observes_accesses_ |= c->observes_accesses();
    strict_sync_ |= c->strict_sync();
    allows_phases_ &= c->allows_phases();
  }
}
checker_set::~checker_set() = default;

void checker_set::launch_started(const launch_state& l) {
  for (const auto& c : checkers_) c->launch_started(l);
}
void checker_set::block_started(block_context& b) {
  for (const auto& c : checkers_) c->block_started(b);
}
void checker_set::accessed(thread_record& t, block_context& b, const access_event& e) {
  for (const auto& c : checkers_) c->accessed(t, b, e);
}
void checker_set::atomic_applied(thread_record& t, const void* p) noexcept {
  for (const auto& c : checkers_) c->atomic_applied(t, p);
}
void checker_set::thread_paused(thread_record& t, block_context& b) {
  for (const auto& c : checkers_) c->thread_paused(t, b);
}
std::exception_ptr checker_set::block_barrier_releasing(block_context& b) {
  for (const auto& c : checkers_)
    if (std::exception_ptr fault = c->block_barrier_releasing(b)) return fault;
  return nullptr;
}
void checker_set::block_barrier_released(block_context& b) noexcept {
  for (const auto& c : checkers_) c->block_barrier_released(b);
}
void checker_set::warp_synchronised(block_context& b, unsigned base, unsigned mask) noexcept {
  for (const auto& c : checkers_) c->warp_synchronised(b, base, mask);
}
void checker_set::grid_synchronised() noexcept {
  for (const auto& c : checkers_) c->grid_synchronised();
}
std::exception_ptr checker_set::launch_ended() {
  for (const auto& c : checkers_)
    if (std::exception_ptr findings = c->launch_ended()) return findings;
  return nullptr;
}

}  // namespace cusim::sim
