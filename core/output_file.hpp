// Files memwall writes for the user (exports, reports, charts): written whole or not at all,
// and never onto a file that must not be replaced, such as the database being read.
#pragma once

#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace memwall {

// Throws UsageError when writing `path` would replace one of `guarded` (the same file, reached
// directly, through a symbolic link, `..` or a hard link). `what` names the guarded files in
// the message, e.g. "the database memwall.db". Nothing is opened.
void refuse_overwriting(const std::string& path, const std::vector<std::string>& guarded, std::string_view what);

// The content goes to a temporary file beside the destination (beside the file a symbolic
// link names) and commit() renames it into place, so a failure or a kill leaves the old file
// as it was. A destination that is a device or a pipe (/dev/stdout) is written directly.
class OutputFile {
  public:
    // Throws EnvironmentError when the destination is a directory or the temporary file
    // cannot be created.
    explicit OutputFile(const std::string& path);
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;
    ~OutputFile();  // removes the temporary file unless committed

    std::ostream& stream();
    // For writers that take a file name (Qt's image and SVG writers); then leave stream() alone.
    const std::string& temporary_path() const { return temporary_; }
    // Throws EnvironmentError when the content could not be written or renamed into place.
    void commit();

  private:
    std::string path_;         // as the user gave it, for messages
    std::string destination_;  // with symbolic links resolved
    std::string temporary_;    // == destination_ when written directly
    std::ofstream out_;
    bool committed_ = false;
};

}  // namespace memwall
