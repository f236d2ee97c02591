// SPDX-License-Identifier: MIT
// Sends stderr (file descriptor 2) to a file until text() gives back what was written: for the
// tests that compare a report the simulator prints (a fault's, or one of behaviour the GPU
// defines) with its exact text. Used by the unmodified programs (check.h) and the API tests.
#pragma once

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

class stderr_capture {
 public:
  stderr_capture() : path_("/tmp/cusim_test_stderr_" + std::to_string(::getpid())) {
    std::fflush(stderr);
    saved_ = ::dup(2);
    std::FILE* f = std::fopen(path_.c_str(), "w");
    ::dup2(::fileno(f), 2);
    std::fclose(f);
  }
  ~stderr_capture() { restore(); }
  stderr_capture(const stderr_capture&) = delete;
  stderr_capture& operator=(const stderr_capture&) = delete;
  std::string text() {
    restore();
    std::ifstream in(path_);
    std::stringstream s;
    s << in.rdbuf();
    std::remove(path_.c_str());
    return s.str();
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    ::dup2(saved_, 2);
    ::close(saved_);
    saved_ = -1;
  }
  std::string path_;
  int saved_ = -1;
};
