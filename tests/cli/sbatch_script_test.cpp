#include "cli/sbatch_script.hpp"

#include <gtest/gtest.h>

using namespace memwall::cli;

namespace {

SlurmJob job() {
    SlurmJob j;
    j.memwall = "/opt/memwall/bin/memwall";
    j.run_args = {"-f", "stream", "-a", "n=4096,8192,16384", "--tag", "note=two words", "--benchmark_repetitions=3"};
    j.shards = 4;
    j.results = "/shared/sweep 1";
    return j;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(SbatchScript, QuotesForBashOnlyWhatNeedsIt) {
    EXPECT_EQ(shell_quoted("n=4096,8192,16384"), "n=4096,8192,16384");
    EXPECT_EQ(shell_quoted("two words"), "'two words'");
    EXPECT_EQ(shell_quoted("it's"), "'it'\\''s'");
    EXPECT_EQ(shell_quoted("$HOME"), "'$HOME'");
    EXPECT_EQ(shell_quoted(""), "''");
}

TEST(SbatchScript, ArrayTaskPerShardRequeuedResumingItsShard) {
    const std::string s = array_script(job());
    EXPECT_EQ(s.rfind("#!/bin/bash\n", 0), 0u);
    EXPECT_TRUE(has(s, "#SBATCH --array=0-3\n"));
    EXPECT_TRUE(has(s, "#SBATCH --requeue\n"));
    EXPECT_TRUE(has(s, "#SBATCH --output='/shared/sweep 1/logs/shard-%a.out'\n"));
    EXPECT_FALSE(has(s, "--gpus-per-task"));
    EXPECT_TRUE(has(s,
                    "run -f stream -a n=4096,8192,16384 --tag 'note=two words' --benchmark_repetitions=3 --quiet "
                    "--shard \"$shard/4\""));
    EXPECT_TRUE(has(s, "run --resume --quiet --benchmark_repetitions=3\n"));
    EXPECT_TRUE(has(s, "trap copy_out EXIT"));
    EXPECT_TRUE(has(s, "memwall=/opt/memwall/bin/memwall\n"));

    SlurmJob gpu = job();
    gpu.gpus_per_task = 2;
    gpu.sbatch = {"--partition=gpu"};
    const std::string g = array_script(gpu);
    EXPECT_TRUE(has(g, "#SBATCH --gpus-per-task=2\n"));
    EXPECT_TRUE(has(g, "#SBATCH --partition=gpu\n"));
}

TEST(SbatchScript, MergeJobMergesEveryShardsCopy) {
    const std::string s = merge_script(job());
    EXPECT_TRUE(has(s, "#SBATCH --job-name=memwall-merge\n"));
    EXPECT_TRUE(has(s, "for i in $(seq 0 3)"));
    EXPECT_TRUE(has(s, "\"$memwall\" merge \"$results/merged.db\" \"${shards[@]}\""));
    EXPECT_FALSE(has(s, "--array"));
}
