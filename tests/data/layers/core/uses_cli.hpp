// Fixture: a vocabulary header that reaches up into the command line.
#pragma once
#include "profiler/counter.hpp"
#include "cli/app.hpp"
