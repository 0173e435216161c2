// Fixture: a vocabulary header that reaches up into the command line.
#pragma once
#include "metrics/counter.hpp"
#include "cli/app.hpp"
