/* req.c - to be written (stub so the tree builds). */
#include "config.h"
#include "req.h"
