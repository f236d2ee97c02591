// SPDX-License-Identifier: MIT
// report_html: the page CUSIM_REPORT writes is one self-contained document with the report's JSON
// inlined where its script reads it, whatever the JSON's strings hold (the page's drawing is tested
// in a browser: tests/teaching/browser_check.py).
#include "report_html.hpp"

#include <doctest/doctest.h>

#include <string>

namespace {

std::string inlined_json(const std::string& page) {
  const std::string open = R"(<script type="application/json" id="cusim-report">)";
  const auto start = page.find(open);
  REQUIRE(start != std::string::npos);
  const auto from = start + open.size();
  const auto end = page.find("</script>", from);
  REQUIRE(end != std::string::npos);
  return page.substr(from, end - from);
}

}  // namespace

TEST_CASE("report.html inlines the report's JSON, its script and its style, and loads nothing") {
  const std::string json = R"({"tool": "cusim", "version": 1, "kernels": [{"name": "k", "launches": 1}]})";
  const std::string page = cusim::sim::render_report_html(json);
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(inlined_json(page) == json);
  // the page's own parts are in, their markers gone
  CHECK(page.find("@JSON@") == std::string::npos);
  CHECK(page.find("/*@JS@*/") == std::string::npos);
  CHECK(page.find("/*@CSS@*/") == std::string::npos);
  CHECK(page.find("data-cusim-status") != std::string::npos);  // from page.js
  CHECK(page.find("svg .sector") != std::string::npos);        // from page.css
  // nothing from elsewhere: no external script, style sheet, image or font
  CHECK(page.find(" src=") == std::string::npos);
  CHECK(page.find("<link") == std::string::npos);
  CHECK(page.find("@import") == std::string::npos);
  CHECK(page.find("url(") == std::string::npos);
}

TEST_CASE("report.html: a '<' in the JSON's strings cannot end the script element") {
  // A kernel's source line may hold anything, "</script>" and "<!--" included.
  const std::string json = R"({"kernels": [{"name": "k", "source": {"lines": ["if (a</script><!--b) {}", "@JSON@ /*@JS@*/"]}}]})";
  const std::string page = cusim::sim::render_report_html(json);
  const std::string inlined = inlined_json(page);
  CHECK(inlined.find('<') == std::string::npos);
  // JSON.parse reads \u003c back as '<': the same strings, escaped
  CHECK(inlined ==
        R"({"kernels": [{"name": "k", "source": {"lines": ["if (a\u003c/script>\u003c!--b) {}", "@JSON@ /*@JS@*/"]}}]})");
  // the markers inside the JSON stay as they are, and the page's script is still there once
  CHECK(page.find("data-cusim-status") != std::string::npos);
}
