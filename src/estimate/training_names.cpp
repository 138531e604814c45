// The names of the training enums, as the options spell them (src/api/options.cpp value sets): one
// table an enum, read both ways (to_string for documents, from_name for requests).
#include "detail/enum_names.h"
#include "llmplan/estimate.h"
#include "llmplan/trainer.h"

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

constexpr detail::enum_name_row<loss_impl> loss_names[] = {
    {loss_impl::full,         "full"        },
    {loss_impl::chunked,      "chunked"     },
    {loss_impl::fused,        "fused"       },
    {loss_impl::linear,       "linear"      },
    {loss_impl::full_shift,   "full-shift"  },
    {loss_impl::head_chunked, "head-chunked"},
};
constexpr detail::enum_name_row<batch_lengths> lengths_names[] = {
    {batch_lengths::variable, "variable"},
    {batch_lengths::fixed,    "fixed"   },
};

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
std::string_view to_string(loss_impl l) {
    return detail::name_in(loss_names, l);
}
std::string_view to_string(batch_lengths l) {
    return detail::name_in(lengths_names, l);
}
std::optional<train_method> train_method_from_name(std::string_view s) {
    return detail::value_in(method_names, s);
}
std::optional<optimizer_kind> optimizer_from_name(std::string_view s) {
    return detail::value_in(optimizer_names, s);
}
std::optional<train_precision> train_precision_from_name(std::string_view s) {
    return detail::value_in(precision_names, s);
}
std::optional<loss_impl> loss_from_name(std::string_view s) {
    return detail::value_in(loss_names, s);
}
std::optional<batch_lengths> batch_lengths_from_name(std::string_view s) {
    return detail::value_in(lengths_names, s);
}

} // namespace llmplan
