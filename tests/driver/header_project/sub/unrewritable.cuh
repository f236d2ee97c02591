#pragma once
struct at_class_scope { __shared__ float s[4]; };
