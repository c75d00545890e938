#!/bin/sh
# Writes the three MNIST-shaped companion files of zeros dlib-adapter links
# beside the file under test (all four, one per name), into folder $1.
set -e
mkdir -p "$1"
cd "$1"
{ printf '\000\000\010\003\000\000\352\140\000\000\000\034\000\000\000\034'; head -c 47040000 /dev/zero; } > train-images-idx3-ubyte
{ printf '\000\000\010\001\000\000\352\140'; head -c 60000 /dev/zero; } > train-labels-idx1-ubyte
{ printf '\000\000\010\003\000\000\047\020\000\000\000\034\000\000\000\034'; head -c 7840000 /dev/zero; } > t10k-images-idx3-ubyte
{ printf '\000\000\010\001\000\000\047\020'; head -c 10000 /dev/zero; } > t10k-labels-idx1-ubyte
