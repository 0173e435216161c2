#include "harness/case_worker.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>

#include "harness/case_measurer.hpp"
#include "harness/case_protocol.hpp"

namespace memwall {

namespace {

void write_line(int fd, std::string line) {
    line += '\n';
    std::size_t done = 0;
    while (done < line.size()) {
        const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) ::_exit(0);  // the parent has gone: nobody to measure for
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace

void serve_cases(std::istream& in, int out, const Catalogue& catalogue, const MemoryHierarchy& mh) {
    InProcessMeasurer measurer(mh);
    write_line(out, kCaseWorkerGreeting);
    for (std::string line; std::getline(in, line);) {
        const auto t0 = std::chrono::steady_clock::now();
        CaseRecord rec;
        try {
            CaseRequest req = decode_case_request(line, catalogue);
            req.options.stage = [out](std::string_view stage) { write_line(out, "stage " + std::string(stage)); };
            rec = measurer.measure(req.planned, req.seed, req.options);
        } catch (const std::exception& e) {  // a request this build cannot serve
            rec.status = CaseStatus::failed;
            rec.message = e.what();
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        write_line(out, "result " + encode_case_result(rec, seconds));
    }
}

}  // namespace memwall
