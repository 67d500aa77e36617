#ifndef STUB_TEXT_H
#define STUB_TEXT_H
#endif
