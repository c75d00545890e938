# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Idx(KaitaiStruct):
    """IDX as specified in spec/idx.md: a 4-byte magic (two reserved zero
    bytes, an element type code, the rank), one big-endian u32 per
    dimension, then product(dimensions) elements, row-major, big-endian,
    and nothing after them.
    
    Which rules of spec/idx.md this description expresses, and which it
    cannot, is listed in spec/kaitai.md ("What Kaitai Struct can and cannot
    express"). A parser generated from it rejects a file by raising a
    validation or end-of-stream error.
    
    .. seealso::
       spec/idx.md
    """

    class ElementType(IntEnum):
        u8 = 8
        i8 = 9
        i16 = 11
        i32 = 12
        f32 = 13
        f64 = 14
    def __init__(self, _io, _parent=None, _root=None):
        super(Idx, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.reserved0 = self._io.read_u1()
        if not self.reserved0 == 0:
            raise kaitaistruct.ValidationNotEqualError(0, self.reserved0, self._io, u"/seq/0")
        self.reserved1 = self._io.read_u1()
        if not self.reserved1 == 0:
            raise kaitaistruct.ValidationNotEqualError(0, self.reserved1, self._io, u"/seq/1")
        self.element_type = KaitaiStream.resolve_enum(Idx.ElementType, self._io.read_u1())
        if not  ((self.element_type == Idx.ElementType.u8) or (self.element_type == Idx.ElementType.i8) or (self.element_type == Idx.ElementType.i16) or (self.element_type == Idx.ElementType.i32) or (self.element_type == Idx.ElementType.f32) or (self.element_type == Idx.ElementType.f64)) :
            raise kaitaistruct.ValidationNotAnyOfError(self.element_type, self._io, u"/seq/2")
        self.rank = self._io.read_u1()
        self.dims = []
        for i in range(self.rank):
            self.dims.append(self._io.read_u4be())

        self.data = []
        for i in range(self.num_elements.value):
            _on = self.element_type
            if _on == Idx.ElementType.f32:
                pass
                self.data.append(self._io.read_f4be())
            elif _on == Idx.ElementType.f64:
                pass
                self.data.append(self._io.read_f8be())
            elif _on == Idx.ElementType.i16:
                pass
                self.data.append(self._io.read_s2be())
            elif _on == Idx.ElementType.i32:
                pass
                self.data.append(self._io.read_s4be())
            elif _on == Idx.ElementType.i8:
                pass
                self.data.append(self._io.read_s1())
            elif _on == Idx.ElementType.u8:
                pass
                self.data.append(self._io.read_u1())

        self.end_of_file = self._io.read_bytes(0)
        _ = self.end_of_file
        if not self._io.is_eof():
            raise kaitaistruct.ValidationExprError(self.end_of_file, self._io, u"/seq/6")


    def _fetch_instances(self):
        pass
        for i in range(len(self.dims)):
            pass

        for i in range(len(self.data)):
            pass
            _on = self.element_type
            if _on == Idx.ElementType.f32:
                pass
            elif _on == Idx.ElementType.f64:
                pass
            elif _on == Idx.ElementType.i16:
                pass
            elif _on == Idx.ElementType.i32:
                pass
            elif _on == Idx.ElementType.i8:
                pass
            elif _on == Idx.ElementType.u8:
                pass

        _ = self.num_elements
        if hasattr(self, '_m_num_elements'):
            pass
            self._m_num_elements._fetch_instances()


    class Product(KaitaiStruct):
        """product(dims[index..rank]), by recursion: the expression language has
        no reduction over a list. At most 256 levels deep (rank <= 255).
        """
        def __init__(self, index, _io, _parent=None, _root=None):
            super(Idx.Product, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.index = index
            self._read()

        def _read(self):
            pass


        def _fetch_instances(self):
            pass
            _ = self.rest
            if hasattr(self, '_m_rest'):
                pass
                self._m_rest._fetch_instances()


        @property
        def rest(self):
            if hasattr(self, '_m_rest'):
                return self._m_rest

            if self.index < self._root.rank:
                pass
                _pos = self._io.pos()
                self._io.seek(0)
                self._raw__m_rest = self._io.read_bytes(0)
                _io__raw__m_rest = KaitaiStream(BytesIO(self._raw__m_rest))
                self._m_rest = Idx.Product(self.index + 1, _io__raw__m_rest, self, self._root)
                self._io.seek(_pos)

            return getattr(self, '_m_rest', None)

        @property
        def value(self):
            if hasattr(self, '_m_value'):
                return self._m_value

            self._m_value = (self._root.dims[self.index] * self.rest.value if self.index < self._root.rank else 1)
            return getattr(self, '_m_value', None)


    @property
    def num_elements(self):
        """product(dims), 1 for rank 0."""
        if hasattr(self, '_m_num_elements'):
            return self._m_num_elements

        _pos = self._io.pos()
        self._io.seek(0)
        self._raw__m_num_elements = self._io.read_bytes(0)
        _io__raw__m_num_elements = KaitaiStream(BytesIO(self._raw__m_num_elements))
        self._m_num_elements = Idx.Product(0, _io__raw__m_num_elements, self, self._root)
        self._io.seek(_pos)
        return getattr(self, '_m_num_elements', None)


