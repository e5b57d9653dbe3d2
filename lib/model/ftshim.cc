// The C shim over libfasttext: C++ stops here.
#include <config.h>
#include "model/ftshim.h"

#include <fasttext/fasttext.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

struct ft_model {
    fasttext::FastText ft;
    std::vector<std::string> labels;  // without the __label__ prefix
};

namespace {

const std::string kLabelPrefix = "__label__";
const int32_t kFastTextMagic = 793712314;
const int32_t kFastTextVersion = 12;

void set_error(char *err, size_t errlen, const std::string &msg)
{
    if (err && errlen)
        std::snprintf(err, errlen, "%s", msg.c_str());
}

void index_labels(ft_model *m)
{
    auto dict = m->ft.getDictionary();
    m->labels.clear();
    for (int32_t i = 0; i < dict->nlabels(); i++) {
        std::string l = dict->getLabel(i);
        if (l.compare(0, kLabelPrefix.size(), kLabelPrefix) == 0)
            l = l.substr(kLabelPrefix.size());
        m->labels.push_back(l);
    }
}

}  // namespace

extern "C" ft_model *ft_train(const char *input_path, const ft_train_args *a,
                              char *err, size_t errlen)
{
    try {
        // fastText's own argument parser sets the defaults of each mode
        // exactly as its command line does.
        std::vector<std::string> argv = {"fasttext", a->mode, "-input",
                                         input_path, "-output", "unused",
                                         "-verbose", "0"};
        auto add = [&argv](const char *name, const std::string &value) {
            argv.push_back(name);
            argv.push_back(value);
        };
        if (a->word_ngrams > 0) add("-wordNgrams", std::to_string(a->word_ngrams));
        if (a->epoch > 0) add("-epoch", std::to_string(a->epoch));
        if (a->lr > 0) {
            std::ostringstream lr;
            lr.imbue(std::locale::classic());
            lr << a->lr;
            add("-lr", lr.str());
        }
        if (a->dim > 0) add("-dim", std::to_string(a->dim));
        if (a->min_count > 0) add("-minCount", std::to_string(a->min_count));
        if (a->threads > 0) add("-thread", std::to_string(a->threads));
        if (a->bucket > 0) add("-bucket", std::to_string(a->bucket));
        add("-seed", std::to_string(a->seed));
        fasttext::Args args;
        args.parseArgs(argv);
        std::unique_ptr<ft_model> m(new ft_model);
        m->ft.train(args);
        index_labels(m.get());
        return m.release();
    } catch (const std::exception &e) {
        set_error(err, errlen, std::string("fastText: ") + e.what());
    } catch (...) {
        set_error(err, errlen, "fastText: unknown error");
    }
    return nullptr;
}

extern "C" ft_model *ft_load(const char *path, char *err, size_t errlen)
{
    try {
        std::ifstream in(path, std::ifstream::binary);
        if (!in.is_open()) {
            set_error(err, errlen, std::string("cannot open: ") + std::strerror(errno));
            return nullptr;
        }
        int32_t magic = 0, version = 0;
        in.read(reinterpret_cast<char *>(&magic), sizeof magic);
        in.read(reinterpret_cast<char *>(&version), sizeof version);
        if (!in || magic != kFastTextMagic) {
            set_error(err, errlen, "not a fastText .bin model");
            return nullptr;
        }
        if (version > kFastTextVersion) {
            set_error(err, errlen, "fastText model format " + std::to_string(version) +
                                       " is newer than this libfasttext reads");
            return nullptr;
        }
        std::unique_ptr<ft_model> m(new ft_model);
        m->ft.loadModel(in);
        // fastText does not check for a short read: a truncated file would
        // leave part of a matrix unset.
        if (in.fail()) {
            set_error(err, errlen, "truncated fastText model");
            return nullptr;
        }
        index_labels(m.get());
        return m.release();
    } catch (const std::bad_alloc &) {
        set_error(err, errlen, "damaged fastText model (impossible sizes)");
    } catch (const std::exception &e) {
        set_error(err, errlen, std::string("fastText: ") + e.what());
    } catch (...) {
        set_error(err, errlen, "fastText: unknown error");
    }
    return nullptr;
}

extern "C" int ft_save(ft_model *m, const char *path, char *err, size_t errlen)
{
    try {
        m->ft.saveModel(path);
        return 0;
    } catch (const std::exception &e) {
        set_error(err, errlen, std::string("fastText: ") + e.what());
    } catch (...) {
        set_error(err, errlen, "fastText: unknown error");
    }
    return -1;
}

extern "C" void ft_free(ft_model *m) { delete m; }

extern "C" int ft_dimension(const ft_model *m) { return m->ft.getDimension(); }

extern "C" int ft_nlabels(const ft_model *m) { return (int)m->labels.size(); }

extern "C" const char *ft_label(const ft_model *m, int i)
{
    return m->labels[(size_t)i].c_str();
}

extern "C" int ft_predict(ft_model *m, const char *text, float *probs,
                          char *err, size_t errlen)
{
    try {
        int n = ft_nlabels(m);
        for (int i = 0; i < n; i++)
            probs[i] = 0.0f;
        std::istringstream in(std::string(text) + "\n");
        std::vector<int32_t> words, labels;
        m->ft.getDictionary()->getLine(in, words, labels);
        fasttext::Predictions preds;
        m->ft.predict(n, words, preds, 0.0);
        for (const auto &p : preds)
            if (p.second >= 0 && p.second < n)
                probs[p.second] = std::exp(p.first);
        return 0;
    } catch (const std::exception &e) {
        set_error(err, errlen, std::string("fastText: ") + e.what());
    } catch (...) {
        set_error(err, errlen, "fastText: unknown error");
    }
    return -1;
}

extern "C" int ft_word_vector(ft_model *m, const char *word, float *out)
{
    try {
        fasttext::Vector v(m->ft.getDimension());
        m->ft.getWordVector(v, word);
        std::memcpy(out, v.data(), sizeof(float) * (size_t)v.size());
        return 0;
    } catch (...) {
        return -1;
    }
}

extern "C" int ft_word_known(const ft_model *m, const char *word)
{
    try {
        return m->ft.getDictionary()->getId(word) >= 0;
    } catch (...) {
        return 0;
    }
}

extern "C" int ft_has_subwords(const ft_model *m)
{
    return m->ft.getArgs().maxn > 0;
}

extern "C" int ft_sentence_vector(ft_model *m, const char *text, float *out)
{
    try {
        fasttext::Vector v(m->ft.getDimension());
        std::istringstream in(std::string(text) + "\n");
        m->ft.getSentenceVector(in, v);
        std::memcpy(out, v.data(), sizeof(float) * (size_t)v.size());
        return 0;
    } catch (...) {
        return -1;
    }
}
