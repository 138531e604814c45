// The names of the training enums, as the options spell them (src/api/options.cpp value sets): one
// table an enum, read both ways (to_string for documents, from_name for requests).
#include "detail/enum_names.h"
#include "llmplan/estimate.h"

namespace llmplan {
namespace {

constexpr detail::enum_name_row<train_method> method_names[] = {
    {train_method::full,  "full" },
    {train_method::lora,  "lora" },
    {train_method::qlora, "qlora"},
};
constexpr detail::enum_name_row<optimizer_kind> optimizer_names[] = {
    {optimizer_kind::adamw,      "adamw"     },
    {optimizer_kind::adamw_8bit, "adamw-8bit"},
    {optimizer_kind::sgd,        "sgd"       },
    {optimizer_kind::adafactor,  "adafactor" },
};
constexpr detail::enum_name_row<train_precision> precision_names[] = {
    {train_precision::fp32,       "fp32"      },
    {train_precision::bf16_mixed, "bf16-mixed"},
    {train_precision::fp16_mixed, "fp16-mixed"},
    {train_precision::bf16,       "bf16"      },
};

template <class E, std::size_t N>
std::optional<E> value_of(const detail::enum_name_row<E> (&rows)[N], std::string_view name) {
    for (const auto& r : rows)
        if (r.name == name) return r.value;
    return std::nullopt;
}

} // namespace

std::string_view to_string(train_method m) {
    return detail::name_in(method_names, m);
}
std::string_view to_string(optimizer_kind o) {
    return detail::name_in(optimizer_names, o);
}
std::string_view to_string(train_precision p) {
    return detail::name_in(precision_names, p);
}
std::optional<train_method> train_method_from_name(std::string_view s) {
    return value_of(method_names, s);
}
std::optional<optimizer_kind> optimizer_from_name(std::string_view s) {
    return value_of(optimizer_names, s);
}
std::optional<train_precision> train_precision_from_name(std::string_view s) {
    return value_of(precision_names, s);
}

} // namespace llmplan
