/* eventq.c - to be written (stub so the tree builds). */
#include "config.h"
#include "eventq.h"
