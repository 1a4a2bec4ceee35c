import { deskHoursText, ja, jaMember } from '@enishi/contract';
import type { ReactNode } from 'react';
import { useClubConfig } from '@/lib/club-config';
import { useClubCalendar } from '@/lib/use-club-calendar';
import { Spinner } from '@/components/ui/spinner';
import { Phrases } from '@/components/ui/phrases';
import './course-images.css';

const c = jaMember.course;

/** One section of the course page: its words as text, the picture that shows them beside (decorative). */
function Section({
  id,
  src,
  index,
  children,
}: {
  id: string;
  src?: string;
  index: number;
  children: ReactNode;
}) {
  return (
    <section className="course-section paper-card" aria-labelledby={id}>
      <div className="course-section__text">{children}</div>
      {src ? (
        // The words of the picture are the section's text, so the picture itself is not read out again.
        <img
          className="course-section__image"
          src={src}
          alt=""
          width={1080}
          height={1350}
          loading={index < 2 ? 'eager' : 'lazy'}
          decoding="async"
        />
      ) : null}
    </section>
  );
}

/**
 * /course (product.md §1.8): the course information as real text (the cover, the four courses, how it
 * works), each section with its picture beside it (COURSE_IMAGES, six by default). Pictures beyond the six
 * sections follow, each with its number as its name.
 */
export function CourseImages() {
  const config = useClubConfig();
  // The hours the admin set on /calendar, as the desk's auto-reply states them (the defaults until they arrive).
  const { hours } = useClubCalendar(true);
  if (config.isPending) return <Spinner label={ja.app.loading} />;
  const images = config.data?.courseImages ?? [];
  const extra = images.slice(6);
  return (
    <div className="course">
      <Section id="course-cover" src={images[0]} index={0}>
        <h2 id="course-cover" className="course-section__title">
          {c.cover.title}
        </h2>
        <p className="course-section__catch">
          <Phrases text={c.cover.catch} />
        </p>
        <p>
          <Phrases text={c.cover.courses} />
        </p>
      </Section>
      {c.courses.map((course, index) => (
        <Section key={course.name} id={`course-${index + 1}`} src={images[index + 1]} index={index + 1}>
          <p className="course-section__en" lang="en">
            {`COURSE 0${index + 1} ${course.en}`}
          </p>
          <h2 id={`course-${index + 1}`} className="course-section__title">
            {course.name}
          </h2>
          <p className="course-section__catch">
            <Phrases text={course.catch} />
          </p>
          <ul className="course-section__points">
            {course.points.map((point) => (
              <li key={point}>
                <Phrases text={point} />
              </li>
            ))}
          </ul>
          <p className="course-section__note">
            <Phrases text={course.note} />
          </p>
        </Section>
      ))}
      <Section id="course-flow" src={images[5]} index={5}>
        <h2 id="course-flow" className="course-section__title">
          {c.flowTitle}
        </h2>
        <ol className="course-section__flow">
          {c.flow.map(([title, body]) => (
            <li key={title}>
              <strong>{title}</strong>
              <span>
                <Phrases text={body} />
              </span>
            </li>
          ))}
        </ol>
        <p className="course-section__note">
          <strong>{c.hours(deskHoursText(hours))}</strong>
          <br />
          <Phrases text={c.fees} />
        </p>
      </Section>
      {extra.length > 0 ? <ExtraImages images={extra} /> : null}
    </div>
  );
}

/** The pictures beyond the six sections, each named by its number (the seventh on). */
function ExtraImages({ images }: { images: string[] }) {
  return (
    <section aria-label={c.more}>
      <ol className="course-images">
        {images.map((src, index) => (
          <li key={src} className="course-images__item">
            <img
              className="course-images__image"
              src={src}
              alt={ja.course.image(index + 7)}
              width={1080}
              height={1350}
              loading="lazy"
              decoding="async"
            />
          </li>
        ))}
      </ol>
    </section>
  );
}
