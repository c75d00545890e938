/* Validates IDX files with libidxc and prints every finding in the
 * library's one text form (its `text`: the line `idx dump` prints), then
 * reads each file through the library's reader.
 *
 *   cc validate.c $(pkg-config --cflags --libs idxc) -o idxc-validate
 *   ./idxc-validate train-images-idx3-ubyte.gz t10k-labels-idx1-ubyte
 *
 * Output, one line each (scripts/test-c.sh compares it with
 * `idx-validate --format json` on the whole corpus):
 *   FILE: SEVERITY[RULE]: MESSAGE (at offset 0xOFF, byte OFF)
 *   FILE: VERDICT (valid or invalid)
 *   FILE: read u8 [60000, 28, 28]            (the read succeeded)
 *   FILE: read warns: SEVERITY[RULE]: MESSAGE (at offset 0xOFF, byte OFF)
 *                                            (its warnings: IDX501)
 *   FILE: read refused: error[RULE]: MESSAGE (at offset 0xOFF, byte OFF)
 * A finding's other fields (rule, severity, offset, length, message,
 * expected, found, hint) are there for a program that acts on them; this
 * one only prints. 
 * Exit status: 0 when every file is valid, 1 when one is not, 2 when one
 * cannot be read. */
#include <idxc.h>

#include <stdio.h>
#include <stdlib.h>

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

/* The payloads this example reads into memory at most (the corpus's are
 * small; a real program sizes its buffer as it sees fit). */
#define MAX_PAYLOAD (64u << 20)

/* Reads the payload of a file into a buffer of its size; prints how it
 * went. Returns 0 on success. */
static int read_file(const char *path) {
    IdxReader *reader = NULL;
    IdxFindings *warnings = NULL;
    IdxError *err = NULL;
    void *buf = NULL;
    IdxStatus s = idx_reader_open_file(path, NULL, &reader, &err);
    if (s == IDX_OK) {
        const IdxHeader *h = idx_reader_header(reader);
        if (h->payload_len > MAX_PAYLOAD) {
            /* a size this program will not allocate on the header's word:
             * the library allocates as the data arrives instead */
            IdxArray *array = NULL;
            s = idx_reader_read_array(reader, &array, &warnings, &err);
            idx_array_free(array);
        } else {
            /* the caller's buffer, sized by the header (malloc(0) may
             * return NULL: ask for one byte at least) */
            buf = malloc(h->payload_len ? (size_t)h->payload_len : 1);
            if (buf == NULL) {
                idx_reader_free(reader);
                return 2;
            }
            s = idx_reader_read_into(reader, buf, (size_t)h->payload_len, &warnings, &err);
        }
        if (s == IDX_OK) {
            printf("%s: read %s [", path, dtype_name(h->dtype));
            for (uint32_t i = 0; i < h->rank; i++)
                printf("%s%u", i ? ", " : "", h->dims[i]);
            printf("]\n");
            /* a read that succeeds may still warn: the byte-order test's
             * IDX501 when the payload reads little-endian */
            for (size_t k = 0; k < warnings->findings_len; k++)
                printf("%s: read warns: %s\n", path, warnings->findings[k].text);
        }
    }
    if (s != IDX_OK) {
        const IdxFinding *f = idx_error_finding(err);
        if (f != NULL)
            printf("%s: read refused: %s\n", path, f->text);
        else
            printf("%s: read failed: %s\n", path, idx_error_message(err));
    }
    free(buf);
    idx_findings_free(warnings);
    idx_error_free(err);
    idx_reader_free(reader);
    return s == IDX_OK ? 0 : 1;
}

int main(int argc, char **argv) {
    int status = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        IdxReport *report = NULL;
        IdxError *err = NULL;
        if (idx_validate_file(argv[i], NULL, &report, &err) != IDX_OK) {
            fprintf(stderr, "%s: %s\n", argv[i], idx_error_message(err));
            idx_error_free(err);
            status = 2;
            continue;
        }
        for (size_t k = 0; k < report->findings_len; k++)
            printf("%s: %s\n", argv[i], report->findings[k].text);
        int valid = report->verdict == IDX_VERDICT_VALID;
        printf("%s: %s\n", argv[i], valid ? "valid" : "invalid");
        idx_report_free(report);
        if (!valid && status == 0)
            status = 1;
        if (read_file(argv[i]) == 2)
            status = 2;
    }
    return status;
}
