//===- KernelCache.cpp - Compiled kernels on disk, keyed by content -------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// The entry format, the atomic store, and the build ID that keys entries to
// the ewc that wrote them.
//
//===----------------------------------------------------------------------===//

#include "ewc/Runtime/KernelCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>

using namespace ewc;
namespace endian = llvm::support::endian;

//===----------------------------------------------------------------------===//
// Keys
//===----------------------------------------------------------------------===//

KernelCacheKey KernelCacheKey::get(llvm::ArrayRef<llvm::StringRef> parts) {
  std::string material;
  for (llvm::StringRef part : parts) {
    char length[8];
    endian::write64le(length, part.size());
    material.append(length, sizeof(length));
    material.append(part.data(), part.size());
  }
  llvm::XXH128_hash_t hash = llvm::xxh3_128bits(llvm::ArrayRef(
      reinterpret_cast<const uint8_t *>(material.data()), material.size()));
  return {hash.high64, hash.low64};
}

std::string KernelCacheKey::str() const {
  return llvm::formatv("{0:x-16}{1:x-16}", high, low).str();
}

//===----------------------------------------------------------------------===//
// Build ID
//===----------------------------------------------------------------------===//

/// The NT_GNU_BUILD_ID note of the loaded object that holds `address`, as
/// hex, or empty. The linker writes it (Debian's GCC passes --build-id); it
/// is a hash of the linked file, so it changes with any change to ewc.
static std::string findBuildId(const void *address) {
  struct Search {
    uintptr_t address;
    std::string id;
  } search{reinterpret_cast<uintptr_t>(address), {}};
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        auto &search = *static_cast<Search *>(data);
        bool holds = false;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &segment = info->dlpi_phdr[i];
          uintptr_t start = info->dlpi_addr + segment.p_vaddr;
          if (segment.p_type == PT_LOAD && search.address >= start &&
              search.address < start + segment.p_memsz)
            holds = true;
        }
        if (!holds)
          return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_NOTE)
            continue;
          const char *note =
              reinterpret_cast<const char *>(info->dlpi_addr + segment.p_vaddr);
          const char *end = note + segment.p_memsz;
          // Notes are 4-byte aligned: header, name, descriptor (ELF gABI).
          while (note + sizeof(ElfW(Nhdr)) <= end) {
            ElfW(Nhdr) header;
            std::memcpy(&header, note, sizeof(header));
            const char *name = note + sizeof(header);
            const char *descriptor = name + llvm::alignTo(header.n_namesz, 4);
            if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 &&
                std::memcmp(name, "GNU", 4) == 0) {
              search.id = llvm::toHex(
                  llvm::StringRef(descriptor, header.n_descsz), true);
              return 1;
            }
            note = descriptor + llvm::alignTo(header.n_descsz, 4);
          }
        }
        return 1;
      },
      &search);
  return search.id;
}

llvm::StringRef KernelCache::getBuildId() {
  static const std::string id = [] {
    const void *self = reinterpret_cast<const void *>(&KernelCache::getBuildId);
    std::string found = findBuildId(self);
    if (!found.empty())
      return "build-id " + found;
    // Without a note (a linker told --build-id=none): the file's path, size
    // and modification time, which a rebuild changes.
    Dl_info info;
    llvm::sys::fs::file_status status;
    if (dladdr(self, &info) && info.dli_fname &&
        !llvm::sys::fs::status(info.dli_fname, status))
      return llvm::formatv(
                 "file {0} {1} {2}", info.dli_fname, status.getSize(),
                 status.getLastModificationTime().time_since_epoch().count())
          .str();
    return std::string("unknown build");
  }();
  return id;
}

//===----------------------------------------------------------------------===//
// Entries
//===----------------------------------------------------------------------===//

namespace {
/// An entry's header, little-endian: magic, format version, the key, the
/// payload's length and xxh3_64 checksum. A change to this layout or to the
/// payload's meaning takes a new kFormatVersion, so old entries are misses.
/// 2: a module's payload keeps its ew IR, for the variants (CompiledModule.h).
constexpr char kMagic[8] = {'E', 'W', 'C', 'C', 'A', 'C', 'H', 'E'};
constexpr uint32_t kFormatVersion = 2;
constexpr size_t kHeaderSize = 8 + 4 + 4 + 8 + 8 + 8 + 8;
} // namespace

std::string KernelCache::getEntryPath(const KernelCacheKey &key) const {
  llvm::SmallString<128> path(directory);
  llvm::sys::path::append(path, key.str() + ".ewck");
  return path.str().str();
}

std::optional<std::string> KernelCache::lookup(const KernelCacheKey &key,
                                               std::string *whyNot) const {
  auto miss = [&](const llvm::Twine &why) -> std::optional<std::string> {
    if (whyNot)
      *whyNot = why.str();
    return std::nullopt;
  };
  std::string path = getEntryPath(key);
  // Not memory-mapped: the bytes are read once, and an entry renamed over
  // this one while we read it leaves the open file's bytes as they were.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false,
                                  /*IsVolatile=*/true);
  if (!file)
    return miss("no entry");
  llvm::StringRef bytes = (*file)->getBuffer();
  if (bytes.size() < kHeaderSize)
    return miss(
        llvm::formatv("truncated entry {0} ({1} bytes)", path, bytes.size()));
  const char *header = bytes.data();
  if (std::memcmp(header, kMagic, sizeof(kMagic)) != 0)
    return miss("not an ewc cache entry: " + path);
  if (endian::read32le(header + 8) != kFormatVersion)
    return miss("entry of another format: " + path);
  if (endian::read64le(header + 16) != key.high ||
      endian::read64le(header + 24) != key.low)
    return miss("entry of another key: " + path);
  uint64_t length = endian::read64le(header + 32);
  if (bytes.size() - kHeaderSize != length)
    return miss(llvm::formatv("truncated entry {0} ({1} of {2} bytes)", path,
                              bytes.size() - kHeaderSize, length));
  llvm::StringRef payload = bytes.drop_front(kHeaderSize);
  if (llvm::xxh3_64bits(payload) != endian::read64le(header + 40))
    return miss("checksum mismatch in " + path);
  return payload.str();
}

llvm::Error KernelCache::store(const KernelCacheKey &key,
                               llvm::StringRef payload) const {
  if (std::error_code ec = llvm::sys::fs::create_directories(directory))
    return llvm::createStringError(ec, "cannot create the cache directory '" +
                                           directory + "': " + ec.message());
  char header[kHeaderSize] = {};
  std::memcpy(header, kMagic, sizeof(kMagic));
  endian::write32le(header + 8, kFormatVersion);
  endian::write64le(header + 16, key.high);
  endian::write64le(header + 24, key.low);
  endian::write64le(header + 32, payload.size());
  endian::write64le(header + 40, llvm::xxh3_64bits(payload));

  std::string path = getEntryPath(key);
  // In the same directory, so that the rename stays on one file system.
  llvm::SmallString<128> temporary;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".tmp-%%%%%%%%", fd, temporary))
    return llvm::createStringError(ec, "cannot write to the cache directory '" +
                                           directory + "': " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(header, sizeof(header));
    os << payload;
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      return llvm::createStringError(ec, "cannot write '" + temporary +
                                             "': " + ec.message());
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return llvm::createStringError(ec, "cannot rename '" + temporary +
                                           "' to '" + path +
                                           "': " + ec.message());
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// In memory
//===----------------------------------------------------------------------===//

KernelMemoryCache &KernelMemoryCache::getProcessCache() {
  // Never destroyed: a module compiled during another static's destruction
  // may still look here.
  static auto *cache = new KernelMemoryCache(kProcessBudget);
  return *cache;
}

std::optional<std::string>
KernelMemoryCache::lookup(const KernelCacheKey &key) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it =
      llvm::find_if(entries, [&](const auto &e) { return e.first == key; });
  if (it == entries.end())
    return std::nullopt;
  entries.splice(entries.begin(), entries, it);
  return it->second;
}

void KernelMemoryCache::store(const KernelCacheKey &key, std::string payload) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it =
      llvm::find_if(entries, [&](const auto &e) { return e.first == key; });
  if (it != entries.end()) {
    size -= it->second.size();
    entries.erase(it);
  }
  if (payload.size() > budget)
    return;
  size += payload.size();
  entries.emplace_front(key, std::move(payload));
  while (size > budget) {
    size -= entries.back().second.size();
    entries.pop_back();
  }
}

size_t KernelMemoryCache::getSize() {
  std::lock_guard<std::mutex> lock(mutex);
  return size;
}
