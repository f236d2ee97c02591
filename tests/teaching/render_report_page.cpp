// SPDX-License-Identifier: MIT
// render_report_page REPORT.json PAGE.html: the page CUSIM_REPORT writes, made from a report.json
// (the page-only browser test draws tests/teaching/fixture_report.json with it).
#include "report_html.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s REPORT.json PAGE.html\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "render_report_page: cannot read %s\n", argv[1]);
    return 1;
  }
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream out(argv[2], std::ios::binary);
  out << cusim::sim::render_report_html(json);
  if (!out.flush()) {
    std::fprintf(stderr, "render_report_page: cannot write %s\n", argv[2]);
    return 1;
  }
  std::printf("render_report_page: %s\n", argv[2]);
  return 0;
}
