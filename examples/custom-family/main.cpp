#include <memwall/memwall.hpp>
void register_gather(memwall::Catalogue& c);
int main(int argc, char** argv) { return memwall::run_cli(argc, argv, register_gather); }
