// Memory for what a WebSocket sink posts to its connection's strand every frame (no heap allocation
// per frame; docs/architecture.md, "No heap allocation per frame"). Asio allocates each posted
// operation through the handler's allocator; without one, a post from a thread that does not run
// the io_context (the session thread) takes the heap every time. A sink gives its handlers a
// PostAllocator over a few fixed slots: the session thread takes a slot, the I/O thread frees it
// when the handler has run. More in flight than there are slots (a strand far behind) falls back to
// the heap. Thread-safe; the allocators share ownership of the memory, so an operation still queued
// when its sink goes keeps it alive.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <new>
#include <utility>

namespace clamsim::web {

class PostMemory {
 public:
  static constexpr std::size_t kSlots = 16;
  static constexpr std::size_t kSlotBytes = 256;   // a frame's handler and the strand's op

  void* allocate(std::size_t bytes) {
    if (bytes <= kSlotBytes) {
      for (Slot& s : slots_) {
        bool free = false;
        if (!s.used.load(std::memory_order_relaxed) &&
            s.used.compare_exchange_strong(free, true, std::memory_order_acquire))
          return s.bytes;
      }
    }
    heap_.fetch_add(1, std::memory_order_relaxed);
    return ::operator new(bytes);
  }
  void deallocate(void* p) noexcept {
    for (Slot& s : slots_) {
      if (p == s.bytes) {
        s.used.store(false, std::memory_order_release);
        return;
      }
    }
    ::operator delete(p);
  }
  // Allocations that did not fit a free slot, so far (for tests).
  std::size_t heap_allocations() const { return heap_.load(std::memory_order_relaxed); }

 private:
  struct Slot {
    alignas(std::max_align_t) unsigned char bytes[kSlotBytes];
    std::atomic<bool> used{false};
  };
  std::array<Slot, kSlots> slots_{};
  std::atomic<std::size_t> heap_{0};
};

template <class T>
class PostAllocator {
 public:
  using value_type = T;
  explicit PostAllocator(std::shared_ptr<PostMemory> m) noexcept : memory_(std::move(m)) {}
  template <class U>
  PostAllocator(const PostAllocator<U>& o) noexcept : memory_(o.memory()) {}  // NOLINT: rebind
  T* allocate(std::size_t n) { return static_cast<T*>(memory_->allocate(n * sizeof(T))); }
  void deallocate(T* p, std::size_t) noexcept { memory_->deallocate(p); }
  const std::shared_ptr<PostMemory>& memory() const noexcept { return memory_; }
  template <class U>
  bool operator==(const PostAllocator<U>& o) const noexcept { return memory_ == o.memory(); }
  template <class U>
  bool operator!=(const PostAllocator<U>& o) const noexcept { return !(*this == o); }

 private:
  std::shared_ptr<PostMemory> memory_;
};

// fn with the allocator asio finds through associated_allocator (Boost 1.74 has no
// bind_allocator).
template <class Fn>
class WithPostMemory {
 public:
  using allocator_type = PostAllocator<void>;
  WithPostMemory(Fn fn, allocator_type a) : fn_(std::move(fn)), alloc_(std::move(a)) {}
  allocator_type get_allocator() const noexcept { return alloc_; }
  void operator()() { fn_(); }

 private:
  Fn fn_;
  allocator_type alloc_;
};

}  // namespace clamsim::web
