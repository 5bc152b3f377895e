// shim.h: the headers of the system GNU readline, for the CReadline module.
//
// readline.h uses FILE without including <stdio.h> itself, so stdio.h must come first.
#ifndef SHOPSH_CREADLINE_SHIM_H
#define SHOPSH_CREADLINE_SHIM_H

#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

#endif
