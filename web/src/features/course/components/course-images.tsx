import { ja } from '@enishi/contract';
import { useClubConfig } from '@/lib/club-config';
import { Spinner } from '@/components/ui/spinner';
import './course-images.css';

/** /course: the club's course information as images (product.md §1: six), from the server's configuration. */
export function CourseImages() {
  const config = useClubConfig();
  if (config.isPending) return <Spinner label={ja.app.loading} />;
  const images = config.data?.courseImages ?? [];
  return (
    <ol className="course-images">
      {images.map((src, index) => (
        <li key={src} className="course-images__item">
          <img
            className="course-images__image"
            src={src}
            alt={ja.course.image(index + 1)}
            width={1080}
            height={1350}
            loading={index < 2 ? 'eager' : 'lazy'}
            decoding="async"
          />
        </li>
      ))}
    </ol>
  );
}
