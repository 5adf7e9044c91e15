# fish completion for ts-gen(1)
#
# ts-gen --model MODEL [-fhqV] [--dims D1,...,DN] [--nnz N] [--seed S]
#        [model options] [--duplicates POLICY] [--sorted] [--sort-order MODES]
#        [--symmetric] [--permute] [value options] [-S SIZE] [-T DIR] [-j N]
#        [--to KIND] [-o DST] [SRC]
# ts-gen --config FILE.yaml [-fqV] [-S SIZE] [-T DIR] [-j N] [-o DST]
# SRC is the tensor a model reads (the seed of kronecker): any file.
# Every file is offered for DST (-F), whose kind --to may give.

complete -c ts-gen -s h -l help -d 'Print a usage summary and exit'  # --help
complete -c ts-gen -s V -l version -d 'Print the version and exit'  # --version
complete -c ts-gen -s q -l quiet -d 'Print no notes on stderr'  # --quiet
complete -c ts-gen -s f -l force -d 'Replace an existing DST'  # --force
complete -c ts-gen -s o -l output -r -F -d 'Where to write: bundle directory or archive, data file (.tns, .tnsb, .mtx, .json; compressed or not), or -'  # --output
complete -c ts-gen -l to -x -a 'bundle tns tnsb frostt mtx cutensor npz binsparse-npz binsparse-h5 splatt-bin frostt-bin hiparti' -d 'Kind of DST'  # --to
complete -c ts-gen -l text -d 'A text data file in a bundle'  # --text
complete -c ts-gen -l binary -d 'A binary data file in a bundle'  # --binary
# The model
complete -c ts-gen -l config -r -F -d 'A configuration file of the reference generators (YAML)'  # --config
complete -c ts-gen -l model -x -a 'uniform random zipf kronecker block sbm poisson-cp like' -d 'The model'  # --model
complete -c ts-gen -l dims -x -d 'The dimensions, D1,...,DN'  # --dims
complete -c ts-gen -l nnz -x -d 'The entries'  # --nnz
complete -c ts-gen -l seed -x -d 'Seed, 0 to 2^64-1 (default 0)'  # --seed
complete -c ts-gen -l low -x -d 'random: the lowest slice degree'  # --low
complete -c ts-gen -l high -x -d 'random: the highest slice degree'  # --high
complete -c ts-gen -l alpha -x -d 'zipf: the exponent'  # --alpha
complete -c ts-gen -l levels -x -d 'kronecker: levels'  # --levels
complete -c ts-gen -l cp-rank -x -d 'kronecker: the CP seed of this rank'  # --cp-rank
complete -c ts-gen -l cp-dims -x -d 'kronecker: dimensions of the CP seed'  # --cp-dims
complete -c ts-gen -l cp-alpha -x -d 'kronecker: power law of the CP seed'  # --cp-alpha
complete -c ts-gen -l cp-noise -x -d 'kronecker: noise of the CP seed'  # --cp-noise
complete -c ts-gen -l cp-lambda -x -a 'softmax none' -d 'kronecker: weights of the CP seed'  # --cp-lambda
complete -c ts-gen -l partitions -x -d 'block: partitions of each mode, or LO:HI of a label'  # --partitions
complete -c ts-gen -l partition-size -x -d 'block: partition sizes LO:HI, or one size'  # --partition-size
complete -c ts-gen -l partition-law -x -a 'uniform random mixed power_law' -d 'block: law of the partition sizes'  # --partition-law
complete -c ts-gen -l density -x -d 'block: share of the block grid non-zero'  # --density
complete -c ts-gen -l einsum -x -d 'block: the operand pair of a contraction, e.g. ade,afg->defg'  # --einsum
complete -c ts-gen -l counts -x -d 'block: the operand pair of label counts FA,FB,C[,B]'  # --counts
complete -c ts-gen -l label-partitions -x -d 'block: partitions of a label, e.g. a=19,d=110'  # --label-partitions
complete -c ts-gen -l label-partition-size -x -d 'block: partition size of a label, e.g. a=4,d=12'  # --label-partition-size
complete -c ts-gen -l communities -x -d 'sbm: communities a mode'  # --communities
complete -c ts-gen -l p-in -x -d 'sbm: density inside communities'  # --p-in
complete -c ts-gen -l p-out -x -d 'sbm: density across communities'  # --p-out
complete -c ts-gen -l scale -x -d 'like: dimensions and nnz times F'  # --scale
complete -c ts-gen -l input-base -x -a '0 1' -d 'Index base of SRC without metadata'  # --input-base
complete -c ts-gen -l permute -d 'The slices of each mode in a random order'  # --permute
complete -c ts-gen -l symmetric -d 'A fully symmetric pattern'  # --symmetric
# The entries
complete -c ts-gen -l duplicates -x -a 'allow unique sum' -d 'What becomes of repeated coordinates'  # --duplicates
complete -c ts-gen -l sorted -d 'Sorted entries'  # --sorted
complete -c ts-gen -l sort-order -x -d 'The mode priority of the sort, e.g. 3,1,2'  # --sort-order
complete -c ts-gen -s S -l buffer-size -x -d 'Memory of the sort (e.g. 256M, 2G, 25%)'  # --buffer-size
complete -c ts-gen -s T -l temporary-directory -x -a '(__fish_complete_directories)' -d 'Where runs spill'  # --temporary-directory
# Values
complete -c ts-gen -l dist -x -a 'uniform normal constant integers' -d 'Distribution of the values'  # --dist
complete -c ts-gen -l range -x -d 'Bounds LO:HI of uniform, integers, normal'  # --range
complete -c ts-gen -l mean -x -d 'Mean of the normal distribution'  # --mean
complete -c ts-gen -l std -x -d 'Standard deviation of the normal distribution'  # --std
complete -c ts-gen -l value -x -d 'Value of the constant distribution'  # --value
complete -c ts-gen -l binary-zeros -x -d 'Binary domain: probability of a 0'  # --binary-zeros
complete -c ts-gen -l value-type -x -a 'float32 float64 int32 int64' -d 'Value type'  # --value-type
complete -c ts-gen -l value-domain -x -a 'general nonnegative binary' -d 'Value domain'  # --value-domain
complete -c ts-gen -l explicit-zeros -x -a 'allowed disallowed' -d 'Whether a value may be 0'  # --explicit-zeros
# The layout and description of the output
complete -c ts-gen -l index-base -x -a '0 1' -d 'Index base of the output'  # --index-base
complete -c ts-gen -l index-type -x -a 'uint32 uint64' -d 'Index type'  # --index-type
complete -c ts-gen -l endian -x -a 'little big' -d 'Byte order of a binary file'  # --endian
complete -c ts-gen -l name -x -d 'Name of the tensor'  # --name
complete -c ts-gen -l group -x -d 'Group of a bundle'  # --group
complete -c ts-gen -l id -x -d 'Id of a bundle, four digits'  # --id
complete -c ts-gen -l time -x -d 'Date of a bundle, YYYY-MM-DD'  # --time
complete -c ts-gen -l source-url -x -d 'Source URL of a bundle'  # --source-url
complete -c ts-gen -s j -l jobs -x -d 'Threads (default: the CPUs)'  # --jobs
