// Fixture: the lowest part.
#pragma once
