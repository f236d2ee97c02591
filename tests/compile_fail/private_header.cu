// SPDX-License-Identifier: MIT
// A backend's private header included on its own: the error names the public header to use.
#include <cusim/backend/sim/runtime.hpp>

int main() { return 0; }
