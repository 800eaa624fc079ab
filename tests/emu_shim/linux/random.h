#include "../kernel_shim.h"
