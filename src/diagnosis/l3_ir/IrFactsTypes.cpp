// The queries of the L3 fact types (IrFacts.h).
#include "diagnosis/l3_ir/IrFacts.h"

#include <algorithm>

namespace strata::diagnosis {

QString dotKindName(DotKind kind)
{
    switch (kind) {
    case DotKind::AsyncMatrix: return QStringLiteral("async_matrix");
    case DotKind::SyncMatrix: return QStringLiteral("sync_matrix");
    case DotKind::Fma: return QStringLiteral("fma");
    case DotKind::None: break;
    }
    return QStringLiteral("none");
}

QString dotLabel(const SourceLineFacts &facts)
{
    return facts.dotName.isEmpty() ? dotKindName(facts.dotKind) : facts.dotName;
}

int LineLayout::contiguousPerThread() const
{
    if (order.isEmpty() || order.first() < 0 || order.first() >= sizePerThread.size())
        return sizePerThread.isEmpty() ? 0 : sizePerThread.last();
    return sizePerThread[order.first()];
}

int SourceLineFacts::minAccessBits(const QString &stage, bool store) const
{
    int smallest = 0;
    for (const GlobalAccess &access : accesses) {
        if (access.stage == stage && access.store == store)
            smallest = smallest == 0 ? access.accessBits : std::min(smallest, access.accessBits);
    }
    return smallest;
}

int SourceLineFacts::maxAccessBits(const QString &stage, bool store) const
{
    int largest = 0;
    for (const GlobalAccess &access : accesses) {
        if (access.stage == stage && access.store == store)
            largest = std::max(largest, access.accessBits);
    }
    return largest;
}

int SourceLineFacts::accessCount(const QString &stage, bool store) const
{
    int count = 0;
    for (const GlobalAccess &access : accesses) {
        if (access.stage == stage && access.store == store)
            count += access.count;
    }
    return count;
}

const SourceLineFacts *KernelIrFacts::line(int sourceLine) const
{
    const auto it = std::lower_bound(lines.cbegin(), lines.cend(), sourceLine,
                                     [](const SourceLineFacts &facts, int line) { return facts.line < line; });
    return it != lines.cend() && it->line == sourceLine ? &*it : nullptr;
}

bool KernelIrFacts::hasMmaDot() const
{
    return std::any_of(lines.cbegin(), lines.cend(), [](const SourceLineFacts &facts) {
        return facts.dotKind == DotKind::AsyncMatrix || facts.dotKind == DotKind::SyncMatrix;
    });
}

} // namespace strata::diagnosis
