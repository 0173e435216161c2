#include "harness/slurm_ids.hpp"

#include <cstdlib>

namespace memwall {

std::map<std::string, std::string> slurm_ids() {
    std::map<std::string, std::string> ids;
    for (const auto& [tag, variable] : {std::pair{"slurm_job_id", "SLURM_JOB_ID"},
                                        {"slurm_array_job_id", "SLURM_ARRAY_JOB_ID"},
                                        {"slurm_array_task_id", "SLURM_ARRAY_TASK_ID"},
                                        {"slurm_restart_count", "SLURM_RESTART_COUNT"}})
        if (const char* v = std::getenv(variable); v && *v) ids[tag] = v;
    return ids;
}

}  // namespace memwall
