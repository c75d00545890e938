//! Elements to native byte order, compiled for the best instruction set
//! the CPU has (chosen at run time).

use crate::edit::ByteOrder;

/// True when elements stored in `stored` order must be byte-swapped to be
/// native.
fn needs_swap(stored: ByteOrder) -> bool {
    (stored == ByteOrder::Big) == cfg!(target_endian = "little")
}

/// Elements of `size` bytes stored in `stored` order to native order in
/// place.
pub(crate) fn to_native_in_place(bytes: &mut [u8], size: usize, stored: ByteOrder) {
    if size > 1 && needs_swap(stored) {
        reverse_elements(bytes, size);
    }
}

/// Reverses the bytes of every whole element of `size` bytes in place.
pub(super) fn reverse_elements(bytes: &mut [u8], size: usize) {
    if size > 1 {
        pulp::Arch::new().dispatch(SwapInPlace { bytes, size });
    }
}

/// The operation [`reverse_elements`] dispatches.
struct SwapInPlace<'a> {
    bytes: &'a mut [u8],
    size: usize,
}

impl pulp::WithSimd for SwapInPlace<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        let SwapInPlace { bytes, size } = self;
        let whole = bytes.len() / size * size;
        macro_rules! swap {
            ($t:ty, $n:expr) => {{
                // arrays of bytes have alignment 1: the cast always succeeds
                let elems: &mut [[u8; $n]] = bytemuck::cast_slice_mut(&mut bytes[..whole]);
                for e in elems {
                    *e = <$t>::from_ne_bytes(*e).swap_bytes().to_ne_bytes();
                }
            }};
        }
        match size {
            2 => swap!(u16, 2),
            4 => swap!(u32, 4),
            8 => swap!(u64, 8),
            _ => {}
        }
    }
}

/// Elements of `size` bytes in `src`, stored in `stored` order, to native
/// order in `dst`
/// (as long); a partial element at the end is copied as it is. Compiled
/// for the best instruction set the CPU has, chosen at run time
/// (`pulp::Arch::dispatch`: AVX2 on x86-64 where present, where the swap
/// is one shuffle per 32 bytes), so the build needs no `target-cpu`.
pub(super) fn to_native(src: &[u8], dst: &mut [u8], size: usize, stored: ByteOrder) {
    if needs_swap(stored) {
        pulp::Arch::new().dispatch(Swap { src, dst, size });
    } else {
        dst[..src.len()].copy_from_slice(src);
    }
}

/// The operation [`to_native`] dispatches when a swap is needed.
struct Swap<'a> {
    src: &'a [u8],
    dst: &'a mut [u8],
    size: usize,
}

impl pulp::WithSimd for Swap<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        let Swap { src, dst, size } = self;
        let whole = src.len() / size * size;
        macro_rules! swap {
            ($t:ty, $n:expr) => {{
                // arrays of bytes have alignment 1: the casts always succeed
                let from: &[[u8; $n]] = bytemuck::cast_slice(&src[..whole]);
                let to: &mut [[u8; $n]] = bytemuck::cast_slice_mut(&mut dst[..whole]);
                for (t, f) in to.iter_mut().zip(from) {
                    *t = <$t>::from_ne_bytes(*f).swap_bytes().to_ne_bytes();
                }
            }};
        }
        match size {
            2 => swap!(u16, 2),
            4 => swap!(u32, 4),
            8 => swap!(u64, 8),
            _ => dst[..whole].copy_from_slice(&src[..whole]),
        }
        dst[whole..src.len()].copy_from_slice(&src[whole..]);
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_swap_is_the_same_on_every_instruction_set() {
        let src: Vec<u8> = (0..1000u32).map(|i| (i * 131 % 251) as u8).collect();
        for size in [1usize, 2, 4, 8] {
            for len in [0usize, 1, 7, 31, 32, 33, 64, 999, 1000] {
                let want: Vec<u8> = src[..len]
                    .chunks(size)
                    .flat_map(|c| {
                        let mut c = c.to_vec();
                        if c.len() == size && cfg!(target_endian = "little") {
                            c.reverse();
                        }
                        c
                    })
                    .collect();
                for arch in [pulp::Arch::new(), pulp::Arch::Scalar] {
                    let mut dst = vec![0u8; len];
                    arch.dispatch(super::Swap {
                        src: &src[..len],
                        dst: &mut dst,
                        size,
                    });
                    assert_eq!(dst, want, "{arch:?} size {size} len {len}");
                    let mut in_place = src[..len].to_vec();
                    arch.dispatch(super::SwapInPlace {
                        bytes: &mut in_place,
                        size,
                    });
                    assert_eq!(in_place, want, "in place: {arch:?} size {size} len {len}");
                }
            }
        }
    }
}
