#pragma once
__shared__ float at_namespace_scope[4];
