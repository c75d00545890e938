meta:
  id: idx
  title: IDX (the MNIST file format)
  file-extension: [idx, idx1-ubyte, idx2-ubyte, idx3-ubyte, idx4-ubyte]
  license: MIT OR Apache-2.0
  endian: be
  ks-version: '0.11'
doc: |
  IDX as specified in spec/idx.md: a 4-byte magic (two reserved zero
  bytes, an element type code, the rank), one big-endian u32 per
  dimension, then product(dimensions) elements, row-major, big-endian,
  and nothing after them.

  Which rules of spec/idx.md this description expresses, and which it
  cannot, is listed in spec/kaitai.md ("What Kaitai Struct can and cannot
  express"). A parser generated from it rejects a file by raising a
  validation or end-of-stream error.
doc-ref: spec/idx.md
seq:
  - id: reserved0
    type: u1
    valid: 0
    doc: IDX101 reserved-bytes (byte 0 must be 0x00).
  - id: reserved1
    type: u1
    valid: 0
    doc: IDX101 reserved-bytes (byte 1 must be 0x00).
  - id: element_type
    type: u1
    enum: element_type
    valid:
      any-of:
        - element_type::u8
        - element_type::i8
        - element_type::i16
        - element_type::i32
        - element_type::f32
        - element_type::f64
    doc: IDX102 unknown-type (byte 2 must be a known element type code).
  - id: rank
    type: u1
    doc: The number of dimensions, 0 to 255 (rank 0 holds one scalar).
  - id: dims
    type: u4
    repeat: expr
    repeat-expr: rank
    doc: |
      The dimensions, outermost first (IDX104 truncated-dimensions: the
      stream ends inside this list).
  - id: data
    type:
      switch-on: element_type
      cases:
        'element_type::u8': u1
        'element_type::i8': s1
        'element_type::i16': s2
        'element_type::i32': s4
        'element_type::f32': f4
        'element_type::f64': f8
    repeat: expr
    repeat-expr: num_elements.value
    doc: |
      product(dims) elements, row-major (IDX202 truncated-payload: the
      stream ends before the last of them).
  - id: end_of_file
    size: 0
    valid:
      expr: _io.eof
    doc: IDX203 trailing-bytes (nothing may follow the payload).
instances:
  num_elements:
    pos: 0
    size: 0
    type: product(0)
    doc: product(dims), 1 for rank 0.
types:
  product:
    doc: |
      product(dims[index..rank]), by recursion: the expression language has
      no reduction over a list. At most 256 levels deep (rank <= 255).
    params:
      - id: index
        type: u1
    instances:
      rest:
        pos: 0
        size: 0
        type: product(index + 1)
        if: index < _root.rank
      value:
        value: 'index < _root.rank ? _root.dims[index] * rest.value.as<u8> : 1'
enums:
  element_type:
    0x08: u8
    0x09: i8
    0x0b: i16
    0x0c: i32
    0x0d: f32
    0x0e: f64
