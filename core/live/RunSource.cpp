#include <jb/live/RunSource.h>

#include <jb/sampling/SampleStore.h>

namespace jb {

RunSource::RunSource(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<jb::PhaseEvent>();
    qRegisterMetaType<jb::Round>();
    qRegisterMetaType<jb::Record>();
    qRegisterMetaType<jb::SetCourse>();
}

RunSource::~RunSource() = default;

std::shared_ptr<const SampleStore> RunSource::storeOf(const std::string& spec) const
{
    for (const auto& [s, store] : stores())
        if (s == spec)
            return store;
    return nullptr;
}

}  // namespace jb
