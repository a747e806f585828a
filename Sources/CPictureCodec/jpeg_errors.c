#include "codec_internal.h"

#include <jerror.h>

_Static_assert(sizeof(((picture_failure *)0)->reason) >= JMSG_LENGTH_MAX, "libjpeg's messages must fit");

/* libjpeg's default prints the message and calls exit(): one damaged upload would end the server. */
static void jump_back(j_common_ptr info) {
    jpeg_errors *errors = (jpeg_errors *)info->err;
    (*info->err->format_message)(info, errors->failure->reason);
    longjmp(errors->jump, 1);
}

/* Warnings that the picture's data is damaged or cut short stop the decode: libjpeg would go on,
   filling the rest with grey or with what a broken stream decodes to, a picture the person never
   sent. Those about markers we ignore anyway (JFIF's version, Adobe's transform code, an ICC
   profile) pass, and nothing is printed. */
static void judge_message(j_common_ptr info, int level) {
    if (level >= 0) {
        return; /* trace messages */
    }
    switch (info->err->msg_code) {
    case JWRN_ADOBE_XFORM:
    case JWRN_BOGUS_ICC:
    case JWRN_JFIF_MAJOR:
        return;
    default:
        jump_back(info);
    }
}

struct jpeg_error_mgr *jpeg_errors_start(jpeg_errors *errors, picture_failure *failure) {
    struct jpeg_error_mgr *manager = jpeg_std_error(&errors->manager);
    manager->error_exit = jump_back;
    manager->emit_message = judge_message;
    errors->failure = failure;
    return manager;
}

void jpeg_errors_stop(j_common_ptr info, const char *reason) {
    jpeg_errors *errors = (jpeg_errors *)info->err;
    set_failure(errors->failure, reason);
    longjmp(errors->jump, 1);
}
