# fish completion for ts-gen-values(1)
#
# ts-gen-values [-fhqV] [--dist DIST] [--range LO:HI] [--mean M] [--std S]
#               [--value V] [--seed N] [--expand] [--blocks-out FILE]
#               [-j N] [options] [-o DST] [SRC]
#   -h --help, -V --version, -q --quiet, -f --force, -o DST --output DST,
#   --to KIND, --dist DIST, --range LO:HI, --mean M, --std S, --value V,
#   --seed N, --binary-zeros P, --symmetric-modes GROUPS, --value-type T,
#   --value-domain D, --explicit-zeros Z, --replace, --expand,
#   --blocks-out FILE, -j N --jobs N, --member NAME, --meta FILE, --input-base 0|1,
#   --input-index-type T, --input-value-type T, --input-endian E,
#   --no-values
# SRC is a bundle (a directory or an archive), a data file (.tns, .tnsb,
# FROSTT .tns, .mtx; compressed or not) or '-'; its kind comes from its
# contents, so every file is offered, and so is every file for DST (-F),
# whose kind --to may give.

set --local vtypes 'float32 float64 int32 int64'
set --local itypes 'uint32 uint64'
set --local endians 'little big'

complete -c ts-gen-values -s h -l help -d 'Print a usage summary and exit'  # --help
complete -c ts-gen-values -s V -l version -d 'Print the version and exit'  # --version
complete -c ts-gen-values -s q -l quiet -d 'Print no notes on stderr'  # --quiet
complete -c ts-gen-values -s f -l force -d 'Replace an existing DST or --blocks-out file'  # --force
complete -c ts-gen-values -s o -l output -r -F -d 'Where to write: bundle directory or archive, data file (.tns, .tnsb, .mtx, .json; compressed or not), or -'  # --output
complete -c ts-gen-values -l to -x -a 'bundle tns tnsb frostt mtx cutensor npz binsparse-npz binsparse-h5 splatt-bin frostt-bin hiparti' -d 'Kind of DST'  # --to
# Values
complete -c ts-gen-values -l dist -x -a 'uniform normal constant integers' -d 'Distribution of the values'  # --dist
complete -c ts-gen-values -l range -x -d 'Bounds LO:HI of uniform, integers, normal'  # --range
complete -c ts-gen-values -l mean -x -d 'Mean of the normal distribution'  # --mean
complete -c ts-gen-values -l std -x -d 'Standard deviation of the normal distribution'  # --std
complete -c ts-gen-values -l value -x -d 'Value of the constant distribution'  # --value
complete -c ts-gen-values -l seed -x -d 'Seed, 0 to 2^64-1 (default 0)'  # --seed
complete -c ts-gen-values -l binary-zeros -x -d 'Binary domain: probability of a 0'  # --binary-zeros
complete -c ts-gen-values -l symmetric-modes -x -d 'Groups of symmetric modes, e.g. 1,2 or 1,2/3,4'  # --symmetric-modes
complete -c ts-gen-values -l value-type -x -a "$vtypes" -d 'Value type'  # --value-type
complete -c ts-gen-values -l value-domain -x -a 'general nonnegative binary' -d 'Value domain'  # --value-domain
complete -c ts-gen-values -l explicit-zeros -x -a 'allowed disallowed' -d 'Whether a value may be 0'  # --explicit-zeros
complete -c ts-gen-values -l replace -d 'Replace the values SRC holds'  # --replace
complete -c ts-gen-values -s j -l jobs -x -d 'Threads (default 1)'  # --jobs
# Block tensors
complete -c ts-gen-values -l expand -d 'Write the elements of the blocks, with values'  # --expand
complete -c ts-gen-values -l blocks-out -r -F -d 'Dense values of the blocks, first mode fastest'  # --blocks-out
# A bare data file or stream
complete -c ts-gen-values -l member -x -d 'The bundle of an archive SRC that holds several'  # --member
complete -c ts-gen-values -l meta -r -F -d 'Metadata of a bare data file or stream'  # --meta
complete -c ts-gen-values -l input-base -x -a '0 1' -d 'Index base of a bare input'  # --input-base
complete -c ts-gen-values -l input-index-type -x -a "$itypes" -d 'Index type of a binary stream'  # --input-index-type
complete -c ts-gen-values -l input-value-type -x -a "$vtypes" -d 'Value type of a binary stream'  # --input-value-type
complete -c ts-gen-values -l input-endian -x -a "$endians" -d 'Byte order of a binary stream'  # --input-endian
complete -c ts-gen-values -l no-values -d 'The input holds coordinates only'  # --no-values
complete -c ts-gen-values -l require-checksums -d 'An archive SRC without SHA256SUMS is an error'  # --require-checksums
# SRC: any file or directory (fish offers files by default).
