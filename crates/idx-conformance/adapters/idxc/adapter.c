/* Conformance adapter (protocol 2, one-shot reader) for this toolkit's C
 * library, libidxc (crates/idx-capi): `idxc-adapter FILE` reads the file
 * as a C program does (idx_reader_open_file with the default options, then
 * idx_reader_read_array, which allocates as the data arrives) and prints
 * the content encoding, or an error document with the library's finding
 * (rule and offset) and exits 1. `idxc-adapter --version` prints the
 * library's version. */
#include <idxc.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void json_str(const char *s) {
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') printf("\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7f) printf("\\u%04x", *p);
        else putchar(*p);
    }
    putchar('"');
}

static const char *dtype_name(IdxElementType t) {
    switch (t) {
    case IDX_U8: return "u8";
    case IDX_I8: return "i8";
    case IDX_I16: return "i16";
    case IDX_I32: return "i32";
    case IDX_F32: return "f32";
    default: return "f64";
    }
}

static void print_element(const IdxArray *a, size_t i) {
    const void *d = a->data;
    switch (a->header.dtype) {
    case IDX_U8: printf("%u", ((const uint8_t *)d)[i]); break;
    case IDX_I8: printf("%d", ((const int8_t *)d)[i]); break;
    case IDX_I16: printf("%d", ((const int16_t *)d)[i]); break;
    case IDX_I32: printf("%" PRId32, ((const int32_t *)d)[i]); break;
    case IDX_F32: {
        uint32_t bits;
        memcpy(&bits, (const char *)d + 4 * i, 4);
        printf("\"0x%08" PRIx32 "\"", bits);
        break;
    }
    default: {
        uint64_t bits;
        memcpy(&bits, (const char *)d + 8 * i, 8);
        printf("\"0x%016" PRIx64 "\"", bits);
        break;
    }
    }
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("%s\n", idx_version());
        return 0;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: idxc-adapter FILE\n");
        return 2;
    }
    IdxReader *reader = NULL;
    IdxArray *array = NULL;
    IdxError *err = NULL;
    IdxStatus s = idx_reader_open_file(argv[1], NULL, &reader, &err);
    /* the read's warnings (IDX501) are not part of the protocol: NULL */
    if (s == IDX_OK) s = idx_reader_read_array(reader, &array, NULL, &err);
    if (s != IDX_OK) {
        const IdxFinding *f = idx_error_finding(err);
        printf("{\"error\": {\"message\": ");
        json_str(idx_error_message(err));
        if (f != NULL) {
            printf(", \"rule\": ");
            json_str(f->rule);
            printf(", \"offset\": %" PRIu64, f->offset);
        }
        printf("}}\n");
        idx_error_free(err);
        idx_reader_free(reader);
        return 1;
    }
    const IdxHeader *h = &array->header;
    printf("{\"dtype\": \"%s\", \"shape\": [", dtype_name(h->dtype));
    for (uint32_t i = 0; i < h->rank; i++) printf("%s%" PRIu32, i ? ", " : "", h->dims[i]);
    printf("], \"data\": [");
    for (uint64_t i = 0; i < h->element_count; i++) {
        if (i) printf(", ");
        print_element(array, (size_t)i);
    }
    printf("]}\n");
    idx_array_free(array);
    idx_reader_free(reader);
    return 0;
}
