// memwall_sass_scan [--arch N] FILE...: per CUDA kernel, its registers, stack frame and the matrix
// instructions of its SASS, read from the machine code itself, so a build without cuobjdump and
// nvdisasm (which Debian does not package) still has SASS evidence. FILE is a cubin, an object
// file or a static library whose fatbinaries hold cubins (nvcc's; the PTX in them is skipped).
// One line per kernel:
//   NAME arch=90 regs=R frame=F instructions=N HMMA=n LDSM=n STSM=n LDGSTS=n
// Ampere..Hopper (sm_80..sm_90) SASS is 16-byte instructions whose opcode is the low 12 bits of the
// first 64-bit word; the table below was checked against nvdisasm 13.2 on sm_80, sm_86, sm_89 and
// sm_90 (docs/architecture.md). Other architectures are refused, not guessed at.
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Bytes = std::span<const unsigned char>;

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

template <class T>
T read(Bytes b, std::uint64_t at) {
    if (at > b.size() || b.size() - at < sizeof(T)) {
        throw Error("truncated file");
    }
    T v;
    std::memcpy(&v, b.data() + at, sizeof v);
    return v;
}

Bytes slice(Bytes b, std::uint64_t at, std::uint64_t size) {
    if (at > b.size() || b.size() - at < size) {
        throw Error("a section lies outside its file");
    }
    return b.subspan(at, size);
}

// The opcodes ptxas emits for mma.sync, ldmatrix, stmatrix and cp.async.
struct Opcode {
    std::uint32_t code;
    const char* name;
};
constexpr std::array<Opcode, 4> kOpcodes{{{0x23c, "HMMA"}, {0x83b, "LDSM"}, {0x844, "STSM"}, {0xfae, "LDGSTS"}}};

struct Section {
    std::string name;
    std::uint32_t type;
    Bytes data;
    std::uint32_t link;
};

struct Elf {
    std::uint16_t machine;
    std::uint8_t abi_version;
    std::uint32_t flags;
    std::vector<Section> sections;
};

bool is_elf(Bytes b) {
    return b.size() >= 4 && std::memcmp(b.data(),
                                        "\x7f"
                                        "ELF",
                                        4) == 0;
}

Elf parse_elf(Bytes b) {
    if (b.size() < 64 || !is_elf(b) || b[4] != 2 || b[5] != 1) {
        throw Error("not a little-endian ELF64 file");
    }
    Elf e{read<std::uint16_t>(b, 18), b[8], read<std::uint32_t>(b, 48), {}};
    const auto shoff = read<std::uint64_t>(b, 40);
    const auto shentsize = read<std::uint16_t>(b, 58);
    const auto shnum = read<std::uint16_t>(b, 60);
    const auto shstrndx = read<std::uint16_t>(b, 62);
    if (shentsize < 64 || shstrndx >= shnum) {
        throw Error("malformed ELF section table");
    }
    std::vector<std::uint32_t> names;
    for (std::uint64_t i = 0; i < shnum; ++i) {
        const std::uint64_t h = shoff + i * shentsize;
        const auto type = read<std::uint32_t>(b, h + 4);
        const auto offset = read<std::uint64_t>(b, h + 24);
        const auto size = read<std::uint64_t>(b, h + 32);
        names.push_back(read<std::uint32_t>(b, h));
        e.sections.push_back({"", type, type == 8 ? Bytes{} : slice(b, offset, size),  // 8: SHT_NOBITS
                              read<std::uint32_t>(b, h + 40)});
    }
    const Bytes strings = e.sections[shstrndx].data;
    for (std::size_t i = 0; i < names.size(); ++i) {
        for (std::uint64_t c = names[i]; c < strings.size() && strings[c] != 0; ++c) {
            e.sections[i].name += static_cast<char>(strings[c]);
        }
    }
    return e;
}

// The cubin's SM version: e_flags bits 8..15 from ELF ABI version 8 (CUDA 12.8 on), bits 0..7 before.
unsigned cubin_arch(const Elf& e) { return e.abi_version >= 8 ? (e.flags >> 8) & 0xff : e.flags & 0xff; }

struct Kernel {
    std::uint32_t registers = 0;
    std::uint32_t frame = 0;
    std::uint64_t instructions = 0;
    std::array<std::uint64_t, kOpcodes.size()> counts{};
};

void scan_cubin(Bytes b, unsigned want_arch, const std::string& where, unsigned& scanned) {
    const Elf e = parse_elf(b);
    if (e.machine != 190) {  // EM_CUDA
        throw Error(where + ": not a cubin");
    }
    const unsigned arch = cubin_arch(e);
    if (want_arch != 0 && arch != want_arch) {
        return;
    }
    if (arch < 80 || arch > 90) {
        throw Error(where + ": sm_" + std::to_string(arch) + " SASS: only sm_80..sm_90 encodings are known");
    }
    std::map<std::string, Kernel> kernels;
    for (const Section& s : e.sections) {
        if (s.name.rfind(".text.", 0) != 0) {
            continue;
        }
        if (s.data.size() % 16 != 0) {
            throw Error(where + ": " + s.name + " is not whole 16-byte instructions");
        }
        Kernel& k = kernels[s.name.substr(6)];
        k.instructions = s.data.size() / 16;
        for (std::uint64_t at = 0; at < s.data.size(); at += 16) {
            const auto opcode = static_cast<std::uint32_t>(read<std::uint64_t>(s.data, at) & 0xfff);
            for (std::size_t i = 0; i < kOpcodes.size(); ++i) {
                k.counts[i] += kOpcodes[i].code == opcode;
            }
        }
    }
    // .nv.info: attributes {format, id, u16 value or size}; EIATTR_REGCOUNT (0x2f) and
    // EIATTR_FRAME_SIZE (0x11) carry {symbol index, value}.
    const Section* symtab = nullptr;
    for (const Section& s : e.sections) {
        if (s.type == 2) {  // SHT_SYMTAB
            symtab = &s;
        }
    }
    for (const Section& s : e.sections) {
        if (s.name != ".nv.info" || symtab == nullptr || symtab->link >= e.sections.size()) {
            continue;
        }
        const Bytes strings = e.sections[symtab->link].data;
        for (std::uint64_t at = 0; at + 4 <= s.data.size();) {
            const auto format = s.data[at];
            const auto id = s.data[at + 1];
            const auto size = read<std::uint16_t>(s.data, at + 2);
            const std::uint64_t value = at + 4;
            at = value + (format == 4 ? size : 0);  // 4: EIFMT_SVAL, a sized value
            if (format != 4 || size != 8 || (id != 0x2f && id != 0x11)) {
                continue;
            }
            const auto symbol = read<std::uint32_t>(s.data, value);
            const auto v = read<std::uint32_t>(s.data, value + 4);
            std::string name;
            for (auto c = read<std::uint32_t>(symtab->data, std::uint64_t{symbol} * 24);
                 c < strings.size() && strings[c] != 0; ++c) {
                name += static_cast<char>(strings[c]);
            }
            auto k = kernels.find(name);
            if (k != kernels.end()) {
                (id == 0x2f ? k->second.registers : k->second.frame) = v;
            }
        }
    }
    for (const auto& [name, k] : kernels) {
        std::cout << name << " arch=" << arch << " regs=" << k.registers << " frame=" << k.frame
                  << " instructions=" << k.instructions;
        for (std::size_t i = 0; i < kOpcodes.size(); ++i) {
            std::cout << ' ' << kOpcodes[i].name << '=' << k.counts[i];
        }
        std::cout << '\n';
    }
    ++scanned;
}

// A host object's fatbinaries (.nv_fatbin): a header {magic 0xBA55ED50, u16 version, u16 header
// size, u64 size}, then entries {u16 kind (2: ELF), u16, u32 header size, u64 size, u32 compressed
// size, ...}. nvcc compresses the PTX, not the cubins; a compressed cubin is refused.
void scan_object(Bytes b, unsigned want_arch, const std::string& where, unsigned& scanned) {
    const Elf e = parse_elf(b);
    if (e.machine == 190) {
        scan_cubin(b, want_arch, where, scanned);
        return;
    }
    for (const Section& s : e.sections) {
        if (s.name != ".nv_fatbin" && s.name != "__nv_relfatbin") {
            continue;
        }
        for (std::uint64_t at = 0; at + 16 <= s.data.size();) {
            if (read<std::uint32_t>(s.data, at) != 0xBA55ED50u) {
                at += 8;  // padding between fatbinaries
                continue;
            }
            const std::uint64_t begin = at + read<std::uint16_t>(s.data, at + 6);
            const std::uint64_t end = begin + read<std::uint64_t>(s.data, at + 8);
            if (end < begin || end > s.data.size()) {
                throw Error(where + ": a fatbinary overruns its section");
            }
            for (std::uint64_t p = begin; p < end;) {
                const auto kind = read<std::uint16_t>(s.data, p);
                const auto header = read<std::uint32_t>(s.data, p + 4);
                const auto size = read<std::uint64_t>(s.data, p + 8);
                if (header < 16 || size > end - p || header > end - p - size) {
                    throw Error(where + ": a fatbinary entry overruns its fatbinary");
                }
                const Bytes payload = slice(s.data, p + header, size);
                if (kind == 2) {
                    if (read<std::uint32_t>(s.data, p + 16) != 0 || !is_elf(payload)) {
                        throw Error(where +
                                    ": a compressed cubin in the fatbinary (build with -Xfatbin=-compress=false)");
                    }
                    scan_cubin(payload, want_arch, where, scanned);
                }
                p += header + size;
            }
            at = end;
        }
    }
}

void scan_file(const std::string& path, unsigned want_arch, unsigned& scanned) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error(path + ": cannot open");
    }
    const std::vector<unsigned char> data{std::istreambuf_iterator<char>(in), {}};
    const Bytes b(data);
    if (b.size() >= 8 && std::memcmp(b.data(), "!<arch>\n", 8) == 0) {
        // ar members: a 60-byte header (the size, decimal, at 48), the data, padded to 2 bytes.
        for (std::uint64_t at = 8; at + 60 <= b.size();) {
            const std::string size_field(reinterpret_cast<const char*>(b.data() + at + 48), 10);
            const std::uint64_t size = std::stoull(size_field);
            const Bytes member = slice(b, at + 60, size);
            if (is_elf(member)) {
                scan_object(member, want_arch, path, scanned);
            }
            at += 60 + size + (size & 1);
        }
        return;
    }
    scan_object(b, want_arch, path, scanned);
}

}  // namespace

int main(int argc, char** argv) {
    unsigned want_arch = 0;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--arch" && i + 1 < argc) {
            want_arch = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
        } else {
            files.push_back(a);
        }
    }
    if (files.empty()) {
        std::cerr << "usage: memwall_sass_scan [--arch N] FILE...  (cubins, objects or static libraries)\n";
        return 2;
    }
    try {
        unsigned scanned = 0;
        for (const std::string& f : files) {
            scan_file(f, want_arch, scanned);
        }
        if (scanned == 0) {
            std::cerr << "memwall_sass_scan: no cubin" << (want_arch ? " for sm_" + std::to_string(want_arch) : "")
                      << " in " << files.front() << (files.size() > 1 ? " ..." : "") << '\n';
            return 1;
        }
    } catch (const std::exception& e) {
        std::cerr << "memwall_sass_scan: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
