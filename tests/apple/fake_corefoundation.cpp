// A stand-in CoreFoundation for the macOS glue's tests: CFString, CFDictionary, CFArray and
// CFNumber as far as the glue and the fake libIOReport use them, with every retain and
// release counted so that a test fails on a leak or a double release. Objects are never
// freed while a test runs (a released one is marked dead), so a second release is caught,
// not a crash.
#include "FakeCF.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

struct Obj {
    std::string kind;  // "string", "dict", "array", "number", or an opaque's name
    long refs = 1;
    std::string text;  // string
    std::vector<std::pair<Obj*, Obj*>> pairs;  // dict
    std::vector<Obj*> items;  // array
    std::int64_t number = 0;
};

// Never destroyed: CoreFoundation's objects live until the process ends, and the ledger must
// keep pointing at them until then (a static set destroyed at exit would leave them unreachable,
// and LeakSanitizer would report every object the ledger still knows as leaked).
std::recursive_mutex& lock()
{
    static auto* m = new std::recursive_mutex;
    return *m;
}
std::unordered_set<Obj*>& objects()
{
    static auto* s = new std::unordered_set<Obj*>;
    return *s;
}
std::vector<std::string>& faults()
{
    static auto* f = new std::vector<std::string>;
    return *f;
}

std::string describe(const Obj* o)
{
    if (o->kind == "string")
        return "CFString '" + o->text + "'";
    if (o->kind == "dict")
        return "CFDictionary of " + std::to_string(o->pairs.size());
    if (o->kind == "array")
        return "CFArray of " + std::to_string(o->items.size());
    if (o->kind == "number")
        return "CFNumber " + std::to_string(o->number);
    return o->kind;
}

Obj* make(std::string kind)
{
    std::lock_guard g(lock());
    Obj* o = new Obj;
    o->kind = std::move(kind);
    objects().insert(o);
    return o;
}

// The object behind p, or nullptr (with a fault) where p is not a live object of ours.
Obj* live(const void* p, const char* call)
{
    Obj* o = const_cast<Obj*>(static_cast<const Obj*>(p));
    if (!p) {
        faults().push_back(std::string(call) + "(NULL)");
        return nullptr;
    }
    if (!objects().count(o)) {
        faults().push_back(std::string(call) + " on an object CoreFoundation never made");
        return nullptr;
    }
    if (o->refs <= 0) {
        faults().push_back(std::string(call) + " on a released " + describe(o));
        return nullptr;
    }
    return o;
}

void retain(Obj* o) { ++o->refs; }

void release(Obj* o)
{
    if (--o->refs > 0)
        return;
    for (auto& [k, v] : o->pairs) {
        release(k);
        release(v);
    }
    for (Obj* i : o->items)
        release(i);
}

bool sameKey(const Obj* a, const Obj* b)
{
    return a == b || (a->kind == "string" && b->kind == "string" && a->text == b->text);
}

}  // namespace

FAKE_EXPORT const void* CFStringCreateWithCString(const void*, const char* s, std::uint32_t)
{
    Obj* o = make("string");
    o->text = s ? s : "";
    return o;
}

FAKE_EXPORT unsigned char CFStringGetCString(const void* s, char* buf, long size, std::uint32_t)
{
    std::lock_guard g(lock());
    Obj* o = live(s, "CFStringGetCString");
    if (!o || o->kind != "string" || size <= 0 || std::size_t(size) <= o->text.size())
        return 0;
    std::memcpy(buf, o->text.c_str(), o->text.size() + 1);
    return 1;
}

FAKE_EXPORT long CFDictionaryGetCount(const void* d)
{
    std::lock_guard g(lock());
    Obj* o = live(d, "CFDictionaryGetCount");
    return o ? long(o->pairs.size()) : 0;
}

FAKE_EXPORT void* CFDictionaryCreateMutableCopy(const void*, long, const void* d)
{
    std::lock_guard g(lock());
    Obj* src = live(d, "CFDictionaryCreateMutableCopy");
    if (!src)
        return nullptr;
    Obj* o = make("dict");
    for (auto& [k, v] : src->pairs) {
        retain(k);
        retain(v);
        o->pairs.emplace_back(k, v);
    }
    return o;
}

FAKE_EXPORT const void* CFDictionaryGetValue(const void* d, const void* key)
{
    std::lock_guard g(lock());
    Obj* o = live(d, "CFDictionaryGetValue");
    Obj* k = live(key, "CFDictionaryGetValue key");
    if (!o || !k)
        return nullptr;
    for (auto& [pk, pv] : o->pairs)
        if (sameKey(pk, k))
            return pv;
    return nullptr;
}

FAKE_EXPORT long CFArrayGetCount(const void* a)
{
    std::lock_guard g(lock());
    Obj* o = live(a, "CFArrayGetCount");
    return o ? long(o->items.size()) : 0;
}

FAKE_EXPORT const void* CFArrayGetValueAtIndex(const void* a, long i)
{
    std::lock_guard g(lock());
    Obj* o = live(a, "CFArrayGetValueAtIndex");
    if (!o || i < 0 || std::size_t(i) >= o->items.size())
        return nullptr;
    return o->items[std::size_t(i)];
}

FAKE_EXPORT const void* CFRetain(const void* p)
{
    std::lock_guard g(lock());
    if (Obj* o = live(p, "CFRetain"))
        retain(o);
    return p;
}

FAKE_EXPORT void CFRelease(const void* p)
{
    std::lock_guard g(lock());
    if (Obj* o = live(p, "CFRelease"))
        release(o);
}

FAKE_EXPORT const void* fakecf_dict_create() { return make("dict"); }
FAKE_EXPORT const void* fakecf_array_create() { return make("array"); }
FAKE_EXPORT const void* fakecf_number_create(std::int64_t v)
{
    Obj* o = make("number");
    o->number = v;
    return o;
}
FAKE_EXPORT const void* fakecf_opaque_create(const char* what) { return make(what ? what : "opaque"); }

FAKE_EXPORT void fakecf_dict_set(const void* dict, const void* key, const void* value)
{
    std::lock_guard g(lock());
    Obj* d = live(dict, "fakecf_dict_set");
    Obj* k = live(key, "fakecf_dict_set key");
    Obj* v = live(value, "fakecf_dict_set value");
    if (!d || !k || !v)
        return;
    retain(k);
    retain(v);
    d->pairs.emplace_back(k, v);
}

FAKE_EXPORT void fakecf_array_append(const void* array, const void* value)
{
    std::lock_guard g(lock());
    Obj* a = live(array, "fakecf_array_append");
    Obj* v = live(value, "fakecf_array_append value");
    if (!a || !v)
        return;
    retain(v);
    a->items.push_back(v);
}

FAKE_EXPORT const void* fakecf_dict_get_cstr(const void* dict, const char* key)
{
    std::lock_guard g(lock());
    Obj* d = live(dict, "fakecf_dict_get_cstr");
    if (!d || d->kind != "dict")
        return nullptr;
    for (auto& [k, v] : d->pairs)
        if (k->kind == "string" && k->text == key)
            return v;
    return nullptr;
}

FAKE_EXPORT std::int64_t fakecf_number_value(const void* number)
{
    std::lock_guard g(lock());
    Obj* o = live(number, "fakecf_number_value");
    return o && o->kind == "number" ? o->number : 0;
}

FAKE_EXPORT int fakecf_is(const void* obj, const char* kind)
{
    std::lock_guard g(lock());
    Obj* o = live(obj, "fakecf_is");
    return o && o->kind == kind;
}

FAKE_EXPORT long fakecf_live_count()
{
    std::lock_guard g(lock());
    long n = 0;
    for (const Obj* o : objects())
        n += o->refs > 0;
    return n;
}

FAKE_EXPORT long fakecf_bad_count()
{
    std::lock_guard g(lock());
    return long(faults().size());
}

FAKE_EXPORT std::size_t fakecf_report(char* buf, std::size_t size)
{
    std::lock_guard g(lock());
    std::string r;
    for (const Obj* o : objects())
        if (o->refs > 0)
            r += "leaked: " + describe(o) + " (" + std::to_string(o->refs) + " reference(s) left)\n";
    for (const std::string& f : faults())
        r += "misuse: " + f + "\n";
    if (buf && size) {
        const std::size_t n = r.size() < size - 1 ? r.size() : size - 1;
        std::memcpy(buf, r.data(), n);
        buf[n] = '\0';
    }
    return r.size();
}

FAKE_EXPORT void fakecf_reset()
{
    std::lock_guard g(lock());
    for (Obj* o : objects())
        delete o;
    objects().clear();
    faults().clear();
}
