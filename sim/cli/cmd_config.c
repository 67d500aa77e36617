/* stub */
#include "config.h"
