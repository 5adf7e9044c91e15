# fish completion for ts-sort(1)
#
# ts-sort [-fhiqV] [-k MODES] [--duplicates POLICY] [-S SIZE] [-T DIR]
#         [-j N] [options] [-o DST] [SRC]
#   -h --help, -V --version, -q --quiet, -f --force, -i --in-place,
#   -o DST --output DST, -k MODES --key MODES, --duplicates POLICY,
#   --to KIND, -S SIZE --buffer-size SIZE, -T DIR --temporary-directory DIR,
#   -j N --jobs N, --member NAME, --meta FILE, --input-base 0|1, --input-index-type T,
#   --input-value-type T, --input-endian E, --no-values
# SRC is a bundle directory, a data file (.tns, .tnsb, FROSTT .tns, .mtx)
# or '-'; its kind comes from its contents, so every file is offered.

set -l vtypes 'float32 float64 int32 int64'
set -l itypes 'uint32 uint64'
set -l endians 'little big'

complete -c ts-sort -s h -l help -d 'Print a usage summary and exit'  # --help
complete -c ts-sort -s V -l version -d 'Print the version and exit'  # --version
complete -c ts-sort -s q -l quiet -d 'Print no notes on stderr'  # --quiet
complete -c ts-sort -s f -l force -d 'Replace an existing DST'  # --force
complete -c ts-sort -s i -l in-place -d 'Rewrite the bundle SRC, atomically'  # --in-place
complete -c ts-sort -s o -l output -r -F -d 'Where to write: bundle directory, .tns, .tnsb, .mtx or -'  # --output
# Sorting
complete -c ts-sort -s k -l key -x -d 'Sort key: modes, 1-based, e.g. 3,1,2'  # --key
complete -c ts-sort -l duplicates -x -a 'keep sum first last error' -d 'What to do with repeated coordinates'  # --duplicates
complete -c ts-sort -l to -x -a 'bundle tns tnsb' -d 'Kind of DST'  # --to
complete -c ts-sort -s S -l buffer-size -x -d 'Memory for entries, e.g. 256M, 2G, 25%'  # --buffer-size
complete -c ts-sort -s T -l temporary-directory -x -a '(__fish_complete_directories)' -d 'Where runs spill'  # --temporary-directory
complete -c ts-sort -s j -l jobs -x -d 'Threads (default 2)'  # --jobs
# A bare data file or stream
complete -c ts-sort -l member -x -d 'The bundle of an archive SRC that holds several'  # --member
complete -c ts-sort -l meta -r -F -d 'Metadata of a bare data file or stream'  # --meta
complete -c ts-sort -l input-base -x -a '0 1' -d 'Index base of a bare input'  # --input-base
complete -c ts-sort -l input-index-type -x -a "$itypes" -d 'Index type of a binary stream'  # --input-index-type
complete -c ts-sort -l input-value-type -x -a "$vtypes" -d 'Value type of a binary stream'  # --input-value-type
complete -c ts-sort -l input-endian -x -a "$endians" -d 'Byte order of a binary stream'  # --input-endian
complete -c ts-sort -l no-values -d 'A binary stream holds coordinates only'  # --no-values
# SRC: any file or directory (fish offers files by default).
