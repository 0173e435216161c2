// Fixture: the command line may include the vocabulary.
#pragma once
#include "core/uses_cli.hpp"
