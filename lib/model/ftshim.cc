// The C shim over libfasttext: C++ stops here.
#include <config.h>
#include "model/ftshim.h"

#include <fasttext/fasttext.h>

#include <cerrno>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <istream>
#include <memory>
#include <new>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "model/ftbin.h"

namespace {

// fastText with the protected parts the shim needs: the version check
// that loadModel(istream&) skips (it decides whether an old supervised
// model's n-grams count), the model's parts for a save whose stream
// state can be checked, and the input matrix for word vectors.
class FastTextModel : public fasttext::FastText {
 public:
    // False when the stream does not start with a known magic and version.
    bool load(std::istream &in)
    {
        if (!checkModel(in))
            return false;
        loadModel(in);
        return true;
    }

    // Exactly what FastText::saveModel writes, onto any stream.
    void save(std::ostream &out)
    {
        if (!input_ || !output_)
            throw std::runtime_error("Model never trained");
        signModel(out);
        args_->save(out);
        dict_->save(out);
        out.write(reinterpret_cast<const char *>(&quant_), sizeof(bool));
        input_->save(out);
        out.write(reinterpret_cast<const char *>(&args_->qout), sizeof(bool));
        output_->save(out);
    }

    // FastText::getWordVector, except that a label of the model is no
    // word (fastText asserts on it) and that it says whether the word had
    // any row to average.
    bool word_vector(const std::string &word, fasttext::Vector &vec) const
    {
        std::vector<int32_t> ids;
        int32_t id = dict_->getId(word);
        if (id >= 0 && id < dict_->nwords())
            ids = dict_->getSubwords(id);
        else if (id < 0 && word != fasttext::Dictionary::EOS)
            dict_->computeSubwords(fasttext::Dictionary::BOW + word +
                                       fasttext::Dictionary::EOW, ids);
        vec.zero();
        for (int32_t row : ids)
            vec.addRow(*input_, row);
        if (!ids.empty())
            vec.mul(1.0 / ids.size());
        return !ids.empty();
    }
};

// A read-only stream buffer over a C FILE, so that libfasttext reads the
// very file ftbin_check_file checked.
class FileInBuf : public std::streambuf {
 public:
    explicit FileInBuf(FILE *fp) : fp_(fp) {}

 protected:
    int_type underflow() override
    {
        size_t n = std::fread(buf_, 1, sizeof buf_, fp_);
        if (n == 0)
            return traits_type::eof();
        setg(buf_, buf_, buf_ + n);
        return traits_type::to_int_type(buf_[0]);
    }

    // Large reads (the matrices) go straight into the caller's memory.
    std::streamsize xsgetn(char *s, std::streamsize n) override
    {
        std::streamsize got = 0;
        while (got < n) {
            std::streamsize avail = egptr() - gptr();
            if (avail == 0 && n - got >= (std::streamsize)sizeof buf_) {
                size_t r = std::fread(s + got, 1, (size_t)(n - got), fp_);
                got += (std::streamsize)r;
                break;
            }
            if (avail == 0) {
                if (traits_type::eq_int_type(underflow(), traits_type::eof()))
                    break;
                avail = egptr() - gptr();
            }
            std::streamsize take = avail < n - got ? avail : n - got;
            std::memcpy(s + got, gptr(), (size_t)take);
            gbump((int)take);
            got += take;
        }
        return got;
    }

 private:
    FILE *fp_;
    char buf_[1 << 16];
};

// A write-only stream buffer over a C FILE, remembering the first error.
class FileOutBuf : public std::streambuf {
 public:
    explicit FileOutBuf(FILE *fp) : fp_(fp) {}
    int error() const { return errno_; }

 protected:
    int_type overflow(int_type c) override
    {
        if (traits_type::eq_int_type(c, traits_type::eof()))
            return traits_type::not_eof(c);
        if (std::putc(c, fp_) == EOF) {
            failed();
            return traits_type::eof();
        }
        return c;
    }

    std::streamsize xsputn(const char *s, std::streamsize n) override
    {
        size_t w = std::fwrite(s, 1, (size_t)n, fp_);
        if (w < (size_t)n)
            failed();
        return (std::streamsize)w;
    }

 private:
    void failed()
    {
        if (!errno_)
            errno_ = errno ? errno : EIO;
    }
    FILE *fp_;
    int errno_ = 0;
};

const std::string kLabelPrefix = "__label__";

}  // namespace

struct ft_model {
    FastTextModel ft;
    std::vector<std::string> labels;  // without the __label__ prefix
};

namespace {

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

// The error of an exception fastText threw, about file (may be NULL).
int exception_error(tells_error *err, const char *file)
{
    try {
        throw;
    } catch (const std::bad_alloc &) {
        return tells_error_nomem(err, file, 0);
    } catch (const std::exception &e) {
        return tells_error_set(err, file, 0, "fastText: %s", e.what());
    } catch (...) {
        return tells_error_set(err, file, 0, "fastText: unknown error");
    }
}

}  // namespace

extern "C" ft_model *ft_train(const char *input_path, const ft_train_args *a,
                              tells_error *err)
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
    } catch (...) {
        exception_error(err, nullptr);
    }
    return nullptr;
}

extern "C" ft_model *ft_load(const char *path, tells_error *err)
{
    FILE *fp = std::fopen(path, "rb");
    if (!fp) {
        tells_error_io(err, path, 0, "cannot open: %s", std::strerror(errno));
        return nullptr;
    }
    ft_model *model = nullptr;
    if (ftbin_check_file(fp, path, nullptr, err) < 0) {
        std::fclose(fp);
        return nullptr;
    }
    if (std::fseek(fp, 0, SEEK_SET) != 0) {
        tells_error_io(err, path, 0, "read error: %s", std::strerror(errno));
        std::fclose(fp);
        return nullptr;
    }
    try {
        FileInBuf buf(fp);
        std::istream in(&buf);
        // The file was found whole, but may change before it is read
        // again: a short read throws rather than leave libfasttext
        // reading past the end for ever.
        in.exceptions(std::ios::failbit | std::ios::badbit);
        std::unique_ptr<ft_model> m(new ft_model);
        if (!m->ft.load(in) || in.peek() != std::char_traits<char>::eof()) {
            tells_error_set(err, path, 0, "the fastText model changed while it was read");
        } else {
            index_labels(m.get());
            model = m.release();
        }
    } catch (const std::ios_base::failure &) {
        if (std::ferror(fp))
            tells_error_io(err, path, 0, "read error: %s", std::strerror(errno));
        else
            tells_error_set(err, path, 0, "the fastText model changed while it was read");
    } catch (...) {
        exception_error(err, path);
    }
    std::fclose(fp);
    return model;
}

extern "C" int ft_write(ft_model *m, FILE *fp, tells_error *err)
{
    try {
        FileOutBuf buf(fp);
        std::ostream out(&buf);
        m->ft.save(out);
        if (!out || std::ferror(fp)) {
            int e = buf.error() ? buf.error() : EIO;
            return tells_error_io(err, nullptr, 0, "write error: %s", std::strerror(e));
        }
        return 0;
    } catch (...) {
        return exception_error(err, nullptr);
    }
}

extern "C" void ft_free(ft_model *m) { delete m; }

extern "C" int ft_dimension(const ft_model *m) { return m->ft.getDimension(); }

extern "C" int ft_nlabels(const ft_model *m) { return (int)m->labels.size(); }

extern "C" const char *ft_label(const ft_model *m, int i)
{
    return m->labels[(size_t)i].c_str();
}

extern "C" int ft_predict(ft_model *m, const char *text, float *probs, tells_error *err)
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
        /* fastText scores are log(p + 1e-5) (its std_log), so a sure
           prediction comes back as 1.00001: keep probabilities in [0, 1]. */
        for (const auto &p : preds)
            if (p.second >= 0 && p.second < n)
                probs[p.second] = std::min(1.0f, (float)std::exp(p.first));
        return 0;
    } catch (...) {
        return exception_error(err, nullptr);
    }
}

extern "C" int ft_word_vector(ft_model *m, const char *word, float *out, tells_error *err)
{
    try {
        fasttext::Vector v(m->ft.getDimension());
        bool has = m->ft.word_vector(word, v);
        std::memcpy(out, v.data(), sizeof(float) * (size_t)v.size());
        return has ? 1 : 0;
    } catch (...) {
        return exception_error(err, nullptr);
    }
}
