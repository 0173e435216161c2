// The ids Slurm gives a job, kept with a run as tags, so a merged run says which array task
// measured each shard and a requeued task's resume is told from its first attempt.
#pragma once

#include <map>
#include <string>

namespace memwall {

// slurm_job_id, slurm_array_job_id, slurm_array_task_id and slurm_restart_count from this
// process's environment (SLURM_JOB_ID, ...), those that are set; none outside a Slurm job.
std::map<std::string, std::string> slurm_ids();

}  // namespace memwall
