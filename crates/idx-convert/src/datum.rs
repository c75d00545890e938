//! Caffe's `Datum` message, declared exactly as in `caffe.proto` (BVLC
//! master, `syntax = "proto2"`):
//!
//! ```text
//! message Datum {
//!   optional int32 channels = 1;
//!   optional int32 height = 2;
//!   optional int32 width = 3;
//!   optional bytes data = 4;
//!   optional int32 label = 5;
//!   repeated float float_data = 6;
//!   optional bool encoded = 7 [default = false];
//! }
//! ```
//!
//! proto2 `optional` fields have presence (a set zero is encoded, as Caffe
//! encodes `label: 0`), hence `Option`; proto2 repeated scalars are not
//! packed unless declared so, hence `packed = "false"` on `float_data`.

/// A Caffe `Datum`: one record of a Caffe LMDB.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Datum {
    /// Field 1, `optional int32 channels`.
    #[prost(int32, optional, tag = "1")]
    pub channels: Option<i32>,
    /// Field 2, `optional int32 height`.
    #[prost(int32, optional, tag = "2")]
    pub height: Option<i32>,
    /// Field 3, `optional int32 width`.
    #[prost(int32, optional, tag = "3")]
    pub width: Option<i32>,
    /// Field 4, `optional bytes data`: the pixels, channel-major.
    #[prost(bytes = "vec", optional, tag = "4")]
    pub data: Option<Vec<u8>>,
    /// Field 5, `optional int32 label`.
    #[prost(int32, optional, tag = "5")]
    pub label: Option<i32>,
    /// Field 6, `repeated float float_data` (unpacked, as proto2 declares it).
    #[prost(float, repeated, packed = "false", tag = "6")]
    pub float_data: Vec<f32>,
    /// Field 7, `optional bool encoded = false`: `data` holds a compressed
    /// image (JPEG, PNG) rather than raw pixels.
    #[prost(bool, optional, tag = "7")]
    pub encoded: Option<bool>,
}

#[cfg(test)]
mod tests {
    use super::Datum;
    use prost::Message;

    fn hex(s: &str) -> Vec<u8> {
        s.split_whitespace()
            .map(|b| u8::from_str_radix(b, 16).unwrap()) // test data: literal hex
            .collect()
    }

    #[test]
    fn encodes_as_caffe_does() {
        let d = Datum {
            channels: Some(1),
            height: Some(2),
            width: Some(3),
            data: Some(vec![0, 1, 2, 0xfd, 0xfe, 0xff]),
            label: Some(0),
            ..Datum::default()
        };
        let want = hex("08 01  10 02  18 03  \
             22 06 00 01 02 fd fe ff  \
             28 00"); // channels, height, width, data (len 6), label 0 (present)
        assert_eq!(d.encode_to_vec(), want);
    }

    #[test]
    fn float_data_is_unpacked_and_negative_labels_take_ten_bytes() {
        let d = Datum {
            channels: Some(1),
            height: Some(1),
            width: Some(2),
            label: Some(-1),
            float_data: vec![1.0, -2.5],
            ..Datum::default()
        };
        let want = hex("08 01  10 01  18 02  \
             28 ff ff ff ff ff ff ff ff ff 01  \
             35 00 00 80 3f  35 00 00 20 c0"); // label -1 as a 10-byte varint; each float with its own tag 0x35
        assert_eq!(d.encode_to_vec(), want);
        assert_eq!(Datum::decode(&want[..]).unwrap(), d); // test data: just encoded
    }
}
