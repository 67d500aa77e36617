#ifndef STUB_H
#define STUB_H
#endif
