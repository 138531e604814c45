// Documents -> the text the CLI prints without --json.
#include "report/document_text.h"

#include "llmplan/facts.h"
#include "report/serving_report.h"
#include "report/text_report.h"

namespace llmplan {

namespace {
/// The first line when a name was read as a catalog model: the person sees what was answered.
std::string resolved_line(const std::optional<model_resolution>& r) {
    return r ? resolution_text(*r) + "\n\n" : std::string{};
}
} // namespace

std::string to_text(const document& doc) {
    std::string text = std::visit(
        [](const auto& d) -> std::string {
            using D = std::decay_t<decltype(d)>;
            if constexpr (std::is_same_v<D, inspect_document>)
                return resolved_line(d.resolved) + model_to_text(d.model);
            else if constexpr (std::is_same_v<D, models_document>)
                return detail::models_text(d);
            else if constexpr (std::is_same_v<D, estimate_document>) {
                if (d.training)
                    return resolved_line(d.resolved) + training_to_text(d.model, d.train, *d.training) +
                           (d.train_fit ? training_fit_to_text(*d.train_fit) : "");
                return resolved_line(d.resolved) + inference_to_text(d.model, d.infer, *d.inference) +
                       (d.fit ? fit_to_text(*d.fit) : "");
            } else if constexpr (std::is_same_v<D, plan_document>) {
                // A question about many users is answered first; the plan for one request at a time (its
                // own recommendation and launch lines, --max-num-seqs 1) follows, labelled as such.
                if (d.serving.empty()) return resolved_line(d.estimate.resolved) + detail::plan_text(d);
                std::string serving = detail::serving_text(d);
                if (!serving.empty() && serving.front() == '\n') serving.erase(0, 1); // the answer's first lines
                return resolved_line(d.estimate.resolved) + serving +
                       "\nFor one request at a time (a single user), the plan is:\n\n" + detail::plan_text(d);
            } else if constexpr (std::is_same_v<D, fit_document>)
                return detail::fit_text(d.result);
            else if constexpr (std::is_same_v<D, check_document>)
                return check_to_text(d.model, d.report);
            else
                return detail::hardware_text(d);
        },
        doc);
    // The footer every answer carries: the date of the newest source its facts come from.
    if (!text.empty() && text.back() != '\n') text += '\n';
    return text + "\nFacts (models, hardware, prices, engine releases) as of " + std::string(facts_as_of) + ".\n";
}

} // namespace llmplan
