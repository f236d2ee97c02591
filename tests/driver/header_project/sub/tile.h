#pragma once
// Needs no rewrite: used in place.
#define TILE_BIAS 0.5f
