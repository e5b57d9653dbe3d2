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
#include <fstream>
#include <istream>
#include <memory>
#include <new>
#include <ostream>
#include <random>
#include <sstream>
#include <streambuf>
#include <string>
#include <unordered_set>
#include <vector>

#include <unistd.h>

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

    // FastText::train for skipgram on one thread (fastText 0.9.2's
    // train, startThreads, trainThread and skipgram, in that order of
    // calls), except that a word is a centre only when centre[id] says so:
    // its own row and its character n-grams' rows are trained to predict
    // its context; every word of a line is still a context and a
    // negative. With every word a centre it is FastText::train, bit for
    // bit (tests/test-ftshim).
    void train_centres(const fasttext::Args &args, const std::vector<std::string> &centres)
    {
        using namespace fasttext;
        args_ = std::make_shared<Args>(args);
        // One thread: the matrix is drawn in args_->thread blocks, so the
        // same count makes the same model whatever was asked.
        args_->thread = 1;
        dict_ = std::make_shared<Dictionary>(args_);
        std::ifstream ifs(args_->input);
        if (!ifs.is_open())
            throw std::invalid_argument(args_->input + " cannot be opened for training!");
        dict_->readFromFile(ifs);
        ifs.close();
        std::vector<char> centre((size_t)dict_->nwords(), 0);
        for (const std::string &w : centres) {
            int32_t id = dict_->getId(w);
            if (id >= 0 && id < dict_->nwords())
                centre[(size_t)id] = 1;
        }
        input_ = createRandomMatrix();
        output_ = createTrainOutputMatrix();
        quant_ = false;
        auto loss = createLoss(output_);
        model_ = std::make_shared<Model>(input_, output_, loss, false);
        tokenCount_ = 0;
        loss_ = -1;
        trainException_ = nullptr;
        std::ifstream in(args_->input);
        Model::State state(args_->dim, (int32_t)output_->size(0), args_->seed);
        const int64_t ntokens = dict_->ntokens();
        int64_t local = 0;
        std::vector<int32_t> line;
        std::uniform_int_distribution<> uniform(1, args_->ws);
        while (keepTraining(ntokens)) {
            real progress = real(tokenCount_) / (args_->epoch * ntokens);
            real lr = args_->lr * (1.0 - progress);
            local += dict_->getLine(in, line, state.rng);
            const int32_t n = (int32_t)line.size();
            for (int32_t w = 0; w < n; w++) {
                // Drawn for every word, as skipgram does.
                int32_t boundary = uniform(state.rng);
                if (!centre[(size_t)line[(size_t)w]])
                    continue;
                const std::vector<int32_t> &ngrams = dict_->getSubwords(line[(size_t)w]);
                for (int32_t c = -boundary; c <= boundary; c++)
                    if (c != 0 && w + c >= 0 && w + c < n)
                        model_->update(ngrams, line, w + c, lr, state);
            }
            if (local > args_->lrUpdateRate) {
                tokenCount_ += local;
                local = 0;
            }
        }
        loss_ = state.getLoss();
    }

    // Whether parts (this one among them) can be joined: the same words
    // in the same order, the same rows, dense matrices.
    bool joins(const std::vector<const FastTextModel *> &parts) const
    {
        for (const FastTextModel *p : parts) {
            if (p->quant_ || !p->input_ || !p->output_ ||
                p->dict_->nwords() != dict_->nwords() ||
                p->dict_->nlabels() != dict_->nlabels() ||
                p->input_->size(0) != input_->size(0) ||
                p->output_->size(0) != output_->size(0) ||
                p->input_->size(1) != p->output_->size(1))
                return false;
            for (int32_t i = 0; i < dict_->nwords(); i++)
                if (p->dict_->getWord(i) != dict_->getWord(i))
                    return false;
        }
        return true;
    }

    // What save would write for the model whose rows are the parts'
    // rows side by side (this one's settings and dictionary, the
    // dimensions summed), without making it: DenseMatrix::save's rows,
    // m and n as 64-bit integers and then m x n numbers, written row by
    // row from the parts.
    void save_joined(std::ostream &out, const std::vector<const FastTextModel *> &parts)
    {
        fasttext::Args args = *args_;
        args.dim = 0;
        for (const FastTextModel *p : parts)
            args.dim += p->args_->dim;
        signModel(out);
        args.save(out);
        dict_->save(out);
        bool quant = false;
        out.write(reinterpret_cast<const char *>(&quant), sizeof(bool));
        save_rows(out, parts, true);
        bool qout = false;
        out.write(reinterpret_cast<const char *>(&qout), sizeof(bool));
        save_rows(out, parts, false);
    }

 private:
    static void save_rows(std::ostream &out, const std::vector<const FastTextModel *> &parts,
                          bool input)
    {
        std::vector<const fasttext::DenseMatrix *> ms;
        int64_t cols = 0;
        for (const FastTextModel *p : parts) {
            auto m = std::dynamic_pointer_cast<fasttext::DenseMatrix>(input ? p->input_
                                                                            : p->output_);
            if (!m)
                throw std::runtime_error("a quantized model cannot be joined");
            ms.push_back(m.get());
            cols += m->cols();
        }
        int64_t rows = ms[0]->rows();
        out.write(reinterpret_cast<const char *>(&rows), sizeof rows);
        out.write(reinterpret_cast<const char *>(&cols), sizeof cols);
        for (int64_t r = 0; r < rows; r++)
            for (const fasttext::DenseMatrix *m : ms)
                out.write(reinterpret_cast<const char *>(m->data() + r * m->cols()),
                          (std::streamsize)(m->cols() * sizeof(fasttext::real)));
    }

 public:

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

// A read-only stream buffer over a checked model: the bytes the check
// read come from its tape, so that libfasttext parses exactly what was
// checked however the file changed since; only the matrices' contents
// (the tape's gaps, which any bytes make valid) are read from the file
// again, at their offsets. It ends where the checked file ended.
class TapeInBuf : public std::streambuf {
 public:
    TapeInBuf(FILE *fp, const ftbin_tape *tape) : fd_(fileno(fp)), t_(tape) {}
    int error() const { return errno_; }

 protected:
    int_type underflow() override
    {
        if (gptr() < egptr())
            return traits_type::to_int_type(*gptr());
        if (next_ >= t_->size)
            return traits_type::eof();
        while (k_ < t_->nspans && t_->span[k_].at + t_->span[k_].len <= next_)
            k_++;
        if (k_ < t_->nspans && t_->span[k_].at <= next_) {
            const ftbin_span &sp = t_->span[k_];
            char *p = reinterpret_cast<char *>(t_->bytes) + sp.tape + (next_ - sp.at);
            setg(p, p, p + (sp.at + sp.len - next_));
            next_ = sp.at + sp.len;
        } else {
            size_t got = read_gap(buf_, sizeof buf_);
            if (got == 0)
                return traits_type::eof();
            setg(buf_, buf_, buf_ + got);
            next_ += (int64_t)got;
        }
        return traits_type::to_int_type(*gptr());
    }

    // Large reads of a gap (the dense matrices) go straight into the
    // caller's memory.
    std::streamsize xsgetn(char *s, std::streamsize n) override
    {
        std::streamsize got = 0;
        while (got < n) {
            std::streamsize avail = egptr() - gptr();
            if (avail == 0 && n - got >= (std::streamsize)sizeof buf_ && in_gap()) {
                size_t r = read_gap(s + got, (size_t)(n - got));
                if (r == 0)
                    break;
                next_ += (int64_t)r;
                got += (std::streamsize)r;
                continue;
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
    // Whether next_ is in a gap (the get area being empty).
    bool in_gap()
    {
        if (next_ >= t_->size)
            return false;
        while (k_ < t_->nspans && t_->span[k_].at + t_->span[k_].len <= next_)
            k_++;
        return k_ == t_->nspans || t_->span[k_].at > next_;
    }

    // Up to want bytes of the gap at next_, from the file at that offset:
    // the count read, 0 when the file ends (it shrank) or fails.
    size_t read_gap(char *s, size_t want)
    {
        int64_t end = k_ < t_->nspans ? t_->span[k_].at : t_->size;
        if ((int64_t)want > end - next_)
            want = (size_t)(end - next_);
        size_t got = 0;
        while (got < want) {
            ssize_t r = pread(fd_, s + got, want - got, (off_t)(next_ + (int64_t)got));
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0 && !errno_)
                errno_ = errno;
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        return got;
    }

    int fd_;
    const ftbin_tape *t_;
    int64_t next_ = 0;   // file offset of the byte after the get area
    size_t k_ = 0;       // the first span not wholly before next_
    int errno_ = 0;
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

// Hash buckets sized to the text: FT_ROWS_PER_NGRAM rows for each distinct
// n-gram the training file holds (word n-grams of 2 to wordNgrams words
// within a line, with fastText's end-of-line word; character n-grams of
// minn to maxn bytes of each distinct word in "<" ">"), at least
// FT_MIN_BUCKET and at most fastText's default. A function of the file's
// bytes alone, so the same text gets the same model for a seed. Counting
// stops once the cap is reached.
enum { FT_ROWS_PER_NGRAM = 4, FT_MIN_BUCKET = 1000, FT_MAX_BUCKET = 2000000 };

int auto_buckets(const char *path, const fasttext::Args &args)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error(std::string(path) + ": cannot open: " + std::strerror(errno));
    const size_t enough = FT_MAX_BUCKET / FT_ROWS_PER_NGRAM;
    std::unordered_set<uint64_t> ngrams, words;
    std::hash<std::string> hash;
    std::string line, word;
    std::vector<uint64_t> line_words;
    const char *space = " \t\v\f\r";
    while (ngrams.size() < enough && std::getline(in, line)) {
        line_words.clear();
        for (size_t p = line.find_first_not_of(space); p != std::string::npos;) {
            size_t e = line.find_first_of(space, p);
            word = line.substr(p, e == std::string::npos ? std::string::npos : e - p);
            p = e == std::string::npos ? e : line.find_first_not_of(space, e);
            if (word.compare(0, args.label.size(), args.label) == 0)
                continue;
            uint64_t h = hash(word);
            line_words.push_back(h);
            if (args.maxn > 0 && words.insert(h).second) {
                std::string w = "<" + word + ">";
                for (int n = args.minn; n <= args.maxn; n++)
                    for (size_t i = 0; i + (size_t)n <= w.size(); i++)
                        ngrams.insert(hash(w.substr(i, (size_t)n)) * 31 + (uint64_t)n);
            }
        }
        line_words.push_back(hash(std::string("</s>")));
        for (size_t i = 0; i < line_words.size(); i++) {
            uint64_t h = line_words[i];
            for (int n = 2; n <= args.wordNgrams && i + (size_t)n <= line_words.size(); n++) {
                h = h * 116049371 + line_words[i + (size_t)n - 1];
                ngrams.insert(h ^ 0x9e3779b97f4a7c15ULL);
            }
        }
    }
    if (in.bad())
        throw std::runtime_error(std::string(path) + ": read error");
    size_t want = ngrams.size() * FT_ROWS_PER_NGRAM;
    return (int)std::min<size_t>(FT_MAX_BUCKET, std::max<size_t>(FT_MIN_BUCKET, want));
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
        // parseArgs leaves buckets only where they are used (word
        // n-grams or subwords); then they are sized to the text.
        if (a->bucket == 0 && args.bucket > 0)
            args.bucket = auto_buckets(input_path, args);
        std::unique_ptr<ft_model> m(new ft_model);
        if (a->centres && args.model == fasttext::model_name::sg)
            m->ft.train_centres(args, std::vector<std::string>(a->centres, a->centres + a->ncentres));
        else
            m->ft.train(args);
        index_labels(m.get());
        return m.release();
    } catch (...) {
        exception_error(err, nullptr);
    }
    return nullptr;
}

extern "C" ft_model *ft_load_checked(FILE *fp, const char *path, const ftbin_tape *tape,
                                     tells_error *err)
{
    ft_model *model = nullptr;
    TapeInBuf buf(fp, tape);
    try {
        std::istream in(&buf);
        // A gap that ends early (the file shrank) is a short read: it
        // throws rather than leave libfasttext with half a matrix.
        in.exceptions(std::ios::failbit | std::ios::badbit);
        std::unique_ptr<ft_model> m(new ft_model);
        if (!m->ft.load(in) || in.peek() != std::char_traits<char>::eof()) {
            tells_error_set(err, path, 0, "the fastText model changed while it was read");
        } else {
            index_labels(m.get());
            model = m.release();
        }
    } catch (const std::ios_base::failure &) {
        if (buf.error())
            tells_error_io(err, path, 0, "read error: %s", std::strerror(buf.error()));
        else
            tells_error_set(err, path, 0, "the fastText model changed while it was read");
    } catch (...) {
        exception_error(err, path);
    }
    return model;
}

extern "C" ft_model *ft_load(const char *path, tells_error *err)
{
    FILE *fp = std::fopen(path, "rb");
    if (!fp) {
        tells_error_io(err, path, 0, "cannot open: %s", std::strerror(errno));
        return nullptr;
    }
    // One open file, checked once: libfasttext gets the bytes the check
    // read, not a second reading of a file that may have changed.
    ftbin_tape tape;
    ft_model *model = nullptr;
    if (ftbin_check_tape(fp, path, nullptr, &tape, err) == 0)
        model = ft_load_checked(fp, path, &tape, err);
    ftbin_tape_free(&tape);
    std::fclose(fp);
    return model;
}

namespace {

// Runs write(out) on a stream over fp: 0, or -1 with err set (a write
// error names no file).
template <class Write>
int write_stream(FILE *fp, tells_error *err, Write write)
{
    try {
        FileOutBuf buf(fp);
        std::ostream out(&buf);
        write(out);
        if (!out || std::ferror(fp)) {
            int e = buf.error() ? buf.error() : EIO;
            return tells_error_io(err, nullptr, 0, "write error: %s", std::strerror(e));
        }
        return 0;
    } catch (...) {
        return exception_error(err, nullptr);
    }
}

}  // namespace

extern "C" int ft_write(ft_model *m, FILE *fp, tells_error *err)
{
    return write_stream(fp, err, [m](std::ostream &out) { m->ft.save(out); });
}

extern "C" void ft_free(ft_model *m) { delete m; }

extern "C" int ft_write_joined(ft_model *const *models, int n, FILE *fp, tells_error *err)
{
    std::vector<const FastTextModel *> parts;
    try {
        for (int k = 0; k < n; k++)
            parts.push_back(&models[k]->ft);
        if (!parts[0]->joins(parts))
            return tells_error_set(err, NULL, 0, "fastText models to join differ in their "
                                   "words or rows");
    } catch (...) {
        return exception_error(err, nullptr);
    }
    return write_stream(fp, err,
                        [&](std::ostream &out) { models[0]->ft.save_joined(out, parts); });
}

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

extern "C" int ft_nwords(const ft_model *m)
{
    return m->ft.getDictionary()->nwords();
}

extern "C" char *ft_word(const ft_model *m, int i)
{
    // getWord returns a copy: the caller gets its own.
    return strdup(m->ft.getDictionary()->getWord(i).c_str());
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
