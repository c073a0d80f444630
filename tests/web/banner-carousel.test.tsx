import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import BannerCarousel from '../../web/src/features/home/BannerCarousel';
import { UiProvider } from '../../web/src/ui/UiProvider';

describe('home banners', () => {
  it('open a site path in the same tab and an outside link in a new one', () => {
    render(
      <MemoryRouter>
        <UiProvider>
          <BannerCarousel
            banners={[
              { id: 1, title: '开通会员', path: '/uploads/a.png', url: '/vip' },
              { id: 2, title: '合作伙伴', path: '/uploads/b.png', url: 'https://partner.example.com/' },
              { id: 3, title: '协议相对', path: '/uploads/c.png', url: '//evil.example.com/' },
            ]}
          />
        </UiProvider>
      </MemoryRouter>,
    );
    const internal = screen.getByRole('link', { name: '开通会员' });
    expect(internal.getAttribute('href')).toBe('/vip');
    expect(internal.hasAttribute('target')).toBe(false);
    const outside = screen.getByRole('link', { name: '合作伙伴' });
    expect(outside.getAttribute('target')).toBe('_blank');
    expect(outside.getAttribute('rel')).toContain('noopener');
    expect(screen.getByRole('link', { name: '协议相对' }).getAttribute('target')).toBe('_blank');
  });
});
