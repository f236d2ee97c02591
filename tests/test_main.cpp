// SPDX-License-Identifier: MIT
// doctest's main for every test executable.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
