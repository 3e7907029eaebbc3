#pragma once
// The fake CoreFoundation's extra C functions (tests only): builders the fake libIOReport makes
// its objects with, and the ledger of retains and releases the tests check (every object
// created must be released exactly once more than it was retained).
#include <cstddef>
#include <cstdint>

extern "C" {
// The CoreFoundation calls the fake libIOReport uses, as the fake CoreFoundation has them.
const void* CFStringCreateWithCString(const void* alloc, const char* s, std::uint32_t encoding);
unsigned char CFStringGetCString(const void* s, char* buf, long size, std::uint32_t encoding);
void* CFDictionaryCreateMutableCopy(const void* alloc, long capacity, const void* dict);
long CFArrayGetCount(const void* array);
const void* CFArrayGetValueAtIndex(const void* array, long i);
void CFRelease(const void* obj);

// Builders; each returns a new object with one reference the caller owns.
const void* fakecf_dict_create();
const void* fakecf_array_create();
const void* fakecf_number_create(std::int64_t v);
const void* fakecf_opaque_create(const char* what);
// Containers retain what is put in them and release it when they go.
void fakecf_dict_set(const void* dict, const void* key, const void* value);
void fakecf_array_append(const void* array, const void* value);
// Borrowed lookups: a dict's value under a key string, a number's value, an object's kind.
const void* fakecf_dict_get_cstr(const void* dict, const char* key);
std::int64_t fakecf_number_value(const void* number);
int fakecf_is(const void* obj, const char* kind);  // "string", "dict", "array", "number", or an opaque's what

// The ledger.
long fakecf_live_count();       // objects created and not yet released to zero
long fakecf_bad_count();        // releases of a released, unknown or null object
std::size_t fakecf_report(char* buf, std::size_t size);  // what is alive and what went wrong
void fakecf_reset();            // forgets every object and fault (start of a test)
}
