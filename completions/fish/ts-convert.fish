# fish completion for ts-convert(1)
#
# ts-convert [-fhqV] [options] SRC DST
# ts-convert [-fhqV] [options] SRC -o DST
#   -h --help, -V --version, -q --quiet, -f --force, -o DST --output DST,
#   --from KIND, --member NAME, --meta FILE, --input-base 0|1, --input-index-type T,
#   --input-value-type T, --input-endian E, --no-values, --dims D1,...,DN,
#   --to KIND, --text, --binary, --index-base 0|1, --index-type T,
#   --value-type T, --endian E, --e16, --mtx-general, --duplicates POLICY,
#   --expand,
#   -S SIZE --buffer-size SIZE, -T DIR --temporary-directory DIR,
#   --upgrade, --name NAME,
#   --group G, --id NNNN,
#   --time YYYY-MM-DD, --source S, --source-url URL,
#   --source-type synthetic|real
# SRC is a bundle (a directory or an archive), a data file (.tns, .tnsb,
# FROSTT .tns, .mtx; compressed or not) or '-'; its kind comes from its
# contents, so every file is offered, and so is every file for DST (-F),
# whose kind --to may give.

set --local kinds 'bundle tns tnsb frostt mtx npz binsparse-npz binsparse-h5 splatt-bin frostt-bin hiparti'
set --local tokinds 'bundle tns tnsb frostt mtx cutensor npz binsparse-npz binsparse-h5 splatt-bin frostt-bin hiparti'
set --local vtypes 'float32 float64 int32 int64'
set --local itypes 'uint32 uint64'
set --local endians 'little big'

complete -c ts-convert -s h -l help -d 'Print a usage summary and exit'  # --help
complete -c ts-convert -s j -l jobs -x -d 'Threads that parse text'  # --jobs
complete -c ts-convert -s V -l version -d 'Print the version and exit'  # --version
complete -c ts-convert -s q -l quiet -d 'Print no notes on stderr'  # --quiet
complete -c ts-convert -s f -l force -d 'Replace an existing DST'  # --force
complete -c ts-convert -s o -l output -r -F -d 'Where to write: bundle directory or archive, data file (.tns, .tnsb, .mtx, .json; compressed or not), or -'  # --output
# Input
complete -c ts-convert -l from -x -a "$kinds" -d 'Kind of SRC'  # --from
complete -c ts-convert -l member -x -d 'The bundle of an archive SRC that holds several'  # --member
complete -c ts-convert -l meta -r -F -d 'Metadata of a bare data file or stream'  # --meta
complete -c ts-convert -l input-base -x -a '0 1' -d 'Index base of the input'  # --input-base
complete -c ts-convert -l input-index-type -x -a "$itypes" -d 'Index type of a binary input'  # --input-index-type
complete -c ts-convert -l input-value-type -x -a "$vtypes" -d 'Value type of the input'  # --input-value-type
complete -c ts-convert -l input-endian -x -a "$endians" -d 'Byte order of a binary input'  # --input-endian
complete -c ts-convert -l no-values -d 'The input holds coordinates only'  # --no-values
complete -c ts-convert -l require-checksums -d 'An archive SRC without SHA256SUMS is an error'  # --require-checksums
complete -c ts-convert -l dims -x -d 'Dimensions of a FROSTT input: D1,...,DN'  # --dims
# Output
complete -c ts-convert -l to -x -a "$tokinds" -d 'Kind of DST'  # --to
complete -c ts-convert -l text -d 'Give an output bundle a text data file'  # --text
complete -c ts-convert -l binary -d 'Give an output bundle a binary data file'  # --binary
complete -c ts-convert -l index-base -x -a '0 1' -d 'Index base of the output'  # --index-base
complete -c ts-convert -l index-type -x -a "$itypes" -d 'Index type of the output'  # --index-type
complete -c ts-convert -l value-type -x -a "$vtypes" -d 'Value type of the output'  # --value-type
complete -c ts-convert -l endian -x -a "$endians" -d 'Byte order of a binary output'  # --endian
complete -c ts-convert -l e16 -d 'Write float values as %.16e, like the reference writer'  # --e16
complete -c ts-convert -l mtx-general -d 'Matrix Market: every entry, never one triangle'  # --mtx-general
complete -c ts-convert -l duplicates -x -a 'sum first last error' -d 'Repeated coordinates in an output of unique entries'  # --duplicates
complete -c ts-convert -l expand -d 'Write the elements of a block tensor, without values'  # --expand
complete -c ts-convert -s S -l buffer-size -x -d 'Memory to sort and for arrays written at the end, e.g. 256M, 2G, 25%'  # --buffer-size
complete -c ts-convert -s T -l temporary-directory -x -a '(__fish_complete_directories)' -d 'Where temporary files go'  # --temporary-directory
complete -c ts-convert -l upgrade -d 'SRC is a bundle of the older metadata profile: make it 0.1'  # --upgrade
# Descriptive metadata of an output bundle
complete -c ts-convert -l name -x -d 'Name of the output'  # --name
complete -c ts-convert -l group -x -d 'Group of an output bundle'  # --group
complete -c ts-convert -l id -x -d 'Id of an output bundle: four digits'  # --id
complete -c ts-convert -l time -x -d 'Date of an output bundle: YYYY-MM-DD'  # --time
complete -c ts-convert -l source -x -d 'Source of an output bundle'  # --source
complete -c ts-convert -l source-url -x -d 'Source URL of an output bundle'  # --source-url
complete -c ts-convert -l source-type -x -a 'synthetic real' -d 'Source type of an output bundle'  # --source-type
# SRC: any file or directory (fish offers files by default).
